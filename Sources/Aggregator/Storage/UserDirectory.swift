import Foundation

/// The users of a store several people share (PostgreSQL).
///
/// Each has a password and their own read and saved state, labels, views and notification
/// rules and marks.
/// A SQLite file has one user and no directory.
public protocol UserDirectory: Sendable {
    /// The user this store reads and writes state as.
    var userName: String { get }
    /// Every user's name, in order.
    func userNames() throws -> [String]
    /// Adds `name` with a password already hashed (``PasswordHash``); fails when it exists.
    func addUser(_ name: String, passwordHash: String, now: Date) throws
    /// Removes `name` and everything that was theirs alone; fails when there is no such user.
    func removeUser(_ name: String) throws
    /// Replaces the password of `name`; fails when there is no such user.
    func setPasswordHash(_ hash: String, of name: String) throws
    /// Whether any user has a password (and so can sign in to `aggr serve`).
    func anyoneHasPassword() throws -> Bool
    /// The kept hash of `name`'s password, nil for no such user or one without a password.
    func passwordHash(of name: String) throws -> String?
    /// The same database as user `name`: their read and saved state, labels and marks.
    func storage(actingAs name: String) throws -> any TimelineStorage
    /// The views of the user this store acts as (``userName``), by name: filters they saved
    /// for themselves beside the config's.
    func ownViews() throws -> [(name: String, expression: String)]
    /// Saves view `name` of this store's user, replacing one of that name.
    func saveOwnView(_ name: String, expression: String) throws
    /// Removes view `name` of this store's user; whether there was one.
    func removeOwnView(_ name: String) throws -> Bool
    /// The notification rules of this store's user, by name: each a providers.json `notify`
    /// entry as JSON text.
    func ownRules() throws -> [(name: String, entry: String)]
    /// Saves rule `name` of this store's user, replacing one of that name.
    func saveOwnRule(_ name: String, entry: String) throws
    /// Removes rule `name` of this store's user; whether there was one.
    func removeOwnRule(_ name: String) throws -> Bool
    /// Every user's own notification rules, by user and name (what a watch sends for).
    func everyonesRules() throws -> [(user: String, name: String, entry: String)]
}
