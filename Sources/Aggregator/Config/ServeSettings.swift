/// The `serve` object of providers.json: where `aggr serve` listens and how it signs in.
public struct ServeSettings: Sendable, Equatable {
    /// The address to listen on (`host:port`, default `127.0.0.1:8080`).
    ///
    /// `--listen` overrides it.
    public var listen: String?
    /// The environment variable holding the password; required to listen beyond loopback.
    public var passwordEnv: String?

    public init(listen: String? = nil, passwordEnv: String? = nil) {
        self.listen = listen
        self.passwordEnv = passwordEnv
    }
}

/// A `host:port` to listen on.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`, `[v6]:port` or `:port` (loopback); nil when malformed.
    public init?(parsing text: String) {
        var host: Substring
        var port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        if host.isEmpty { host = "127.0.0.1" }
        guard let number = Int(port), (0...65_535).contains(number), !host.contains(" ") else { return nil }
        self.init(host: String(host), port: number)
    }

    /// Whether only this machine can connect (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension ConfigReader {
    /// The `serve` object.
    func serveSettings(_ value: JSONValue) throws(ConfigError) -> ServeSettings {
        var settings = ServeSettings()
        for member in try members(value, at: "serve", allowed: ["listen", "password_env"]) {
            let path = "serve.\(member.key)"
            if member.key == "listen" {
                let text = try string(member.value, at: path)
                guard ListenAddress(parsing: text) != nil else {
                    throw fail(path, "must be host:port, such as 127.0.0.1:8080 (got \"\(text)\")")
                }
                settings.listen = text
            } else {
                settings.passwordEnv = try tokenEnv(member.value, at: path, secret: "password", example: "AGGR_PASSWORD")
            }
        }
        return settings
    }
}
