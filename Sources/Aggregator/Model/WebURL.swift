import Foundation

/// Checks and normalizes the web URLs items carry.
public enum WebURL {
    /// Whether `text` is an absolute http(s) URL with a host.
    public static func isHTTP(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// The form used to recognize one page reached through two providers.
    ///
    /// Scheme and `www.` are folded, default ports, trailing slashes and `utm_*` tracking
    /// parameters dropped. The fragment is kept: a reply (`/t/1#r_2`) is not its topic.
    public static func canonical(_ text: String) -> String {
        guard var components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return text }
        let scheme = components.scheme?.lowercased() ?? "https"
        components.host = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.scheme = scheme == "http" ? "https" : scheme
        if components.path.count > 1, components.path.hasSuffix("/") {
            components.path.removeLast()
        } else if components.path.isEmpty {
            components.path = "/"
        }
        if let query = components.queryItems {
            let kept = query.filter { !$0.name.lowercased().hasPrefix("utm_") }
            components.queryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? text
    }
}
