import Foundation

/// A signed-in browser session (`cookie_env`) and the one origin it may be sent to.
///
/// It travels only on requests a provider marks as web-page requests, only to the
/// provider's own web origin (scheme, host and port of `web_url` or the type's default),
/// and only over HTTPS unless `web_url` was configured explicitly. libcurl drops it on a
/// redirect to another host or port.
public struct WebCookie: Sendable {
    /// The `Cookie` header value.
    public var value: String
    /// The environment variable it came from, for messages.
    public var variable: String
    /// `scheme://host[:port]` of the provider's web root.
    public var origin: String

    public init?(value: String?, variable: String, webRoot: String, webRootConfigured: Bool) {
        guard let value, !value.isEmpty, let origin = Self.origin(of: webRoot) else { return nil }
        guard webRootConfigured || origin.hasPrefix("https://") else { return nil }
        self.value = value
        self.variable = variable
        self.origin = origin
    }

    /// Whether a request to `url` may carry the cookie.
    public func allows(_ url: String) -> Bool {
        Self.origin(of: url) == origin
    }

    /// `scheme://host[:port]` of `url`, lower-cased, or nil when it has no host.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }
}
