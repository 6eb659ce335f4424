import Foundation

/// Removes secrets from URLs and headers before they reach errors, logs, the database or
/// recordings.
public enum SecretRedactor {
    /// Query parameters whose values are credentials.
    static let secretParameters: Set<String> = [
        "access_token", "token", "api_key", "apikey", "key", "client_secret", "password", "secret", "auth", "private_token",
        "sig", "signature",
    ]
    /// Headers whose values are credentials.
    static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "private-token", "x-auth-token",
    ]

    public static let placeholder = "REDACTED"

    /// `url` with secret query values and any userinfo password replaced.
    public static func redact(url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        var changed = false
        if components.password != nil {
            components.password = placeholder
            changed = true
        }
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                guard secretParameters.contains(item.name.lowercased()), item.value != nil else { return item }
                changed = true
                return URLQueryItem(name: item.name, value: placeholder)
            }
        }
        return changed ? (components.string ?? url) : url
    }

    /// Whether header `name` carries a credential.
    public static func isSecretHeader(_ name: String) -> Bool {
        secretHeaders.contains(name.lowercased())
    }

    /// `headers` with credential values replaced.
    public static func redact(headers: [(String, String)]) -> [(String, String)] {
        headers.map { isSecretHeader($0.0) ? ($0.0, placeholder) : $0 }
    }

    /// The credential values `request` carries: secret header values (and the token after a
    /// scheme such as `Bearer`) and secret query parameter values.
    public static func secretValues(of request: HTTPRequest) -> [String] {
        var values = request.headers.filter { isSecretHeader($0.0) }.map(\.1)
        values += values.compactMap { $0.split(separator: " ").last.map(String.init) }
        values += (URLComponents(string: request.url)?.queryItems ?? [])
            .filter { secretParameters.contains($0.name.lowercased()) }.compactMap(\.value)
        return values
    }

    /// `text` with every occurrence of each of `secrets` replaced (for bodies and messages).
    public static func redact(text: String, secrets: [String]) -> String {
        secrets.filter { $0.count >= 4 }.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }
}
