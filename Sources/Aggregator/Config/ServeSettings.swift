/// The `serve` object of providers.json: where `aggr serve` listens and how it signs in.
public struct ServeSettings: Sendable, Equatable {
    /// The address to listen on (`host:port`, default `127.0.0.1:8080`).
    ///
    /// `--listen` overrides it.
    public var listen: String?
    /// The environment variable holding the password; required to listen beyond loopback.
    public var passwordEnv: String?
    /// Host names the server answers for besides loopback names and the listen address
    /// (the public name behind a reverse proxy), lower-cased, without a port.
    public var hosts: [String]
    /// How long a connection may sit without sending a request (`idle_timeout`).
    public var idleTimeout: TimeSpan?
    /// How long a request's head may take to arrive (`header_timeout`).
    public var headerTimeout: TimeSpan?
    /// How long a request's body may take after its head (`body_timeout`).
    public var bodyTimeout: TimeSpan?
    /// The most connections open at once (`max_connections`).
    public var maximumConnections: Int?
    /// The user name reader apps sign in with (`user`, default `aggr`): a Fever app's
    /// `api_key` is the MD5 of `user:password`.
    public var user = "aggr"

    public init(listen: String? = nil, passwordEnv: String? = nil, hosts: [String] = []) {
        self.listen = listen
        self.passwordEnv = passwordEnv
        self.hosts = hosts
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
        let allowed = ["listen", "password_env", "user", "hosts", "idle_timeout", "header_timeout", "body_timeout", "max_connections"]
        for member in try members(value, at: "serve", allowed: allowed) {
            let path = "serve.\(member.key)"
            if member.key.hasSuffix("_timeout") {
                let span = try timeSpan(member.value, at: path)
                guard (1...3_600).contains(span.seconds) else { throw fail(path, localized("must be from 1s to 1h (got \(span))")) }
                switch member.key {
                case "idle_timeout": settings.idleTimeout = span
                case "header_timeout": settings.headerTimeout = span
                default: settings.bodyTimeout = span
                }
            } else if member.key == "max_connections" {
                settings.maximumConnections = try integer(member.value, at: path, in: 1...1_000_000)
            } else if member.key == "user" {
                let name = try string(member.value, at: path)
                guard !name.isEmpty, name.count <= 64, !name.contains(":"), !TerminalText.hasControls(name) else {
                    throw fail(path, localized("must be a user name of 1 to 64 characters without \":\", such as \"aggr\""))
                }
                settings.user = name
            } else if member.key == "hosts" {
                settings.hosts = try hostNames(member.value, at: path)
            } else if member.key == "listen" {
                let text = try string(member.value, at: path)
                guard ListenAddress(parsing: text) != nil else {
                    throw fail(path, localized("must be host:port, such as 127.0.0.1:8080 (got \"\(text)\")"))
                }
                settings.listen = text
            } else {
                settings.passwordEnv = try tokenEnv(member.value, at: path, secret: "password", example: "AGGR_PASSWORD")
            }
        }
        return settings
    }

    /// `serve.hosts`: host names such as `"aggr.example.org"`, each without scheme, path or port.
    func hostNames(_ value: JSONValue, at path: String) throws(ConfigError) -> [String] {
        guard case .array(let values) = value else {
            throw fail(path, localized("must be a list of host names, such as [\"aggr.example.org\"]"))
        }
        var names: [String] = []
        for (index, value) in values.enumerated() {
            let text = try string(value, at: "\(path)[\(index)]")
            let name = text.lowercased()
            let allowed = name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." || $0 == ":" || $0 == "[" || $0 == "]"
            }
            guard !name.isEmpty, allowed, !name.hasPrefix("."), name.filter({ $0 == ":" }).count != 1 else {
                throw fail(
                    "\(path)[\(index)]",
                    localized(
                        "must be a host name such as aggr.example.org, without scheme, path or port (got \"\(TerminalText.sanitize(text))\")"
                    ))
            }
            names.append(name)
        }
        return names
    }
}
