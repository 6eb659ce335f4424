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
    /// The database user the reader tokens are for and their password's stored hash; nil
    /// for the site's own tokens (from ``password``).
    let user: String?
    let userPasswordHash: String?

    public init(secret: String, password: String?) {
        self.secret = secret
        self.password = password
        user = nil
        userPasswordHash = nil
    }

    private init(secret: String, user: String, passwordHash: String) {
        self.secret = secret
        password = nil
        self.user = user
        userPasswordHash = passwordHash
    }

    /// The keys of database user `user`: their reader tokens name them and are signed over
    /// their password's hash, so a new password (`aggr users passwd`) ends them.
    public func signing(for user: String, passwordHash: String) -> ServeKeys {
        ServeKeys(secret: secret, user: user, passwordHash: passwordHash)
    }

    /// What the reader tokens are signed over: the user and their hash, or the password.
    var readerCredential: String {
        if let user, let userPasswordHash { return "\(user)\u{0}\(userPasswordHash)" }
        return password ?? ""
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
