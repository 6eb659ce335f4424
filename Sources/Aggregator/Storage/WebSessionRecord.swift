import Foundation

/// A browser session of `aggr serve` as the database keeps it: shared by every serve
/// process on the database, found by the SHA-256 of its cookie (a copy of the database
/// gives no one a live cookie).
public struct WebSessionRecord: Sendable, Equatable {
    /// The SHA-256 (hex) of the session's cookie value.
    public var idHash: String
    /// The token its forms carry.
    public var csrf: String
    /// Who signed in: a user of the database, or nil for the password in the config.
    public var user: String?
    /// When it ends unless used again.
    public var expires: Date

    public init(idHash: String, csrf: String, user: String?, expires: Date) {
        self.idHash = idHash
        self.csrf = csrf
        self.user = user
        self.expires = expires
    }
}
