import Foundation

/// An API answered 401 to a request carrying the configured token: it expired or was revoked.
public struct TokenRejectedError: Error, Sendable, CustomStringConvertible {
    /// The environment variable the token came from.
    public var variable: String
    /// The request URL, secrets redacted.
    public var url: String
    public var excerpt: String

    public init(variable: String, url: String, excerpt: String) {
        self.variable = variable
        self.url = url
        self.excerpt = excerpt
    }

    public var description: String {
        localized(
            "token rejected (expired or revoked): renew the token in $\(variable) (HTTP 401 from \(url)\(excerpt.isEmpty ? "" : ": \(excerpt)"))"
        )
    }
}
