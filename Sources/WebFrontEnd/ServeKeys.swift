import Aggregator
import Foundation

/// The tokens `aggr serve` hands out, each an HMAC keyed with this installation's secret
/// (kept in the database, rotated by `aggr serve --rotate-tokens`).
///
/// Two installations with the same password therefore issue different reader-app tokens,
/// and a leaked token says nothing about the password without the secret.
public struct ServeKeys: Sendable, Equatable {
    /// The installation's secret for `serve`.
    let secret: String
    /// The configured password; nil on an open loopback server.
    let password: String?

    public init(secret: String, password: String?) {
        self.secret = secret
        self.password = password
    }

    /// The form token of a visitor without a session: bound to the random value of their
    /// `aggr_form` cookie, which another site can neither read nor set (signed double submit).
    public func formToken(binding nonce: String) -> String { sign("form", nonce) }

    /// The HMAC of `value` for `purpose`, keyed with the installation's secret.
    func sign(_ purpose: String, _ value: String) -> String {
        // NUL separates the parts: no purpose and value can run together into another's.
        RequestSigner.hmacSHA256(Array("\(purpose)\u{0}\(value)".utf8), key: secret)
    }
}
