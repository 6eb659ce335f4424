import Foundation

/// The users of a shared (PostgreSQL) database: `aggr users`.
extension LibrarySession {
    /// Why a user operation cannot run here.
    public struct UsersUnavailable: Error, CustomStringConvertible {
        public var description: String {
            localized("users need a PostgreSQL database (--db postgres://…); a SQLite file has one user")
        }
    }

    private var users: any UserDirectory {
        get throws {
            guard let directory = storage.userDirectory else { throw UsersUnavailable() }
            return directory
        }
    }

    /// Every user's name.
    public func userNames() throws -> [String] { try users.userNames() }

    /// The user whose read and saved state this session uses; nil for a database with one
    /// user and no directory (SQLite).
    public var userName: String? { (storage.userDirectory)?.userName }

    /// Whether the database has users who can sign in (with a password); false on SQLite.
    public func hasUsersWithPasswords() throws -> Bool {
        guard let directory = storage.userDirectory else { return false }
        return try directory.anyoneHasPassword()
    }

    /// The kept hash of user `name`'s password (what their reader-app tokens are signed
    /// over, so a new password ends them); nil for no such user or none set.
    public func passwordHash(of name: String) throws -> String? {
        guard let directory = storage.userDirectory else { return nil }
        return try directory.passwordHash(of: name)
    }

    /// Adds user `name` with `password` (kept as a ``PasswordHash``).
    public func addUser(_ name: String, password: String) throws {
        try Self.checkUserName(name)
        try Self.checkPassword(password)
        try users.addUser(name, passwordHash: PasswordHash.make(password), now: clock())
    }

    /// Removes user `name` with their read and saved state, labels and marks.
    public func removeUser(_ name: String) throws { try users.removeUser(name) }

    /// Gives user `name` a new password.
    public func setPassword(of name: String, to password: String) throws {
        try Self.checkPassword(password)
        try users.setPasswordHash(PasswordHash.make(password), of: name)
    }

    /// Whether `password` is user `name`'s (false for no such user).
    public func verifyPassword(of name: String, _ password: String) throws -> Bool {
        guard let stored = try users.passwordHash(of: name) else { return false }
        return PasswordHash.verify(password, against: stored)
    }

    /// A user name is 1–64 letters, digits and `.-_@`.
    static func checkUserName(_ name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_@".unicodeScalars.contains($0)
        }
        guard (1...64).contains(name.count), allowed else {
            throw StoreError(
                path: "users",
                message: localized(
                    "bad user name \"\(TerminalText.sanitize(name))\": use 1 to 64 letters, digits, dots, dashes, underscores or @"))
        }
    }

    static func checkPassword(_ password: String) throws {
        guard password.count >= 8 else {
            throw StoreError(path: "users", message: localized("the password is too short: at least 8 characters"))
        }
    }
}
