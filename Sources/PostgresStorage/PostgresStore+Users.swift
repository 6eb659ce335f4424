import Aggregator
import Foundation

extension PostgresStore: UserDirectory {
    public var userDirectory: (any UserDirectory)? { self }

    public func userNames() throws -> [String] {
        try read { session in try session.rows("SELECT name FROM aggr_user ORDER BY name").compactMap { try $0.get(0, as: String.self) } }
    }

    public func addUser(_ name: String, passwordHash: String, now: Date) throws {
        try write { session in
            let added = try session.execute(
                "INSERT INTO aggr_user (name, password_hash, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                [.text(name), .text(passwordHash), .integer(Self.millis(now))])
            guard added == 1 else { throw StoreError(path: session.place, message: localized("user \(name) exists already")) }
        }
    }

    public func removeUser(_ name: String) throws {
        try write { session in
            guard try session.execute("DELETE FROM aggr_user WHERE name = ?", [.text(name)]) == 1 else {
                throw StoreError(path: session.place, message: localized("no user \(name)"))
            }
            try session.execute("DELETE FROM web_session WHERE user_name = ?", [.text(name)])
            try Self.noteTimelineChange(in: session)
        }
    }

    public func setPasswordHash(_ hash: String, of name: String) throws {
        try write { session in
            guard try session.execute("UPDATE aggr_user SET password_hash = ? WHERE name = ?", [.text(hash), .text(name)]) == 1 else {
                throw StoreError(path: session.place, message: localized("no user \(name)"))
            }
            // A new password signs the user out everywhere.
            try session.execute("DELETE FROM web_session WHERE user_name = ?", [.text(name)])
        }
    }

    public func storage(actingAs name: String) throws -> any TimelineStorage { try acting(as: name) }

    public func ownViews() throws -> [(name: String, expression: String)] {
        try ownEntries(.views).map { ($0.name, $0.value) }
    }

    public func saveOwnView(_ name: String, expression: String) throws { try saveOwnEntry(.views, name, expression) }

    public func removeOwnView(_ name: String) throws -> Bool { try removeOwnEntry(.views, name) }

    public func ownRules() throws -> [(name: String, entry: String)] { try ownEntries(.rules).map { ($0.name, $0.value) } }

    public func saveOwnRule(_ name: String, entry: String) throws { try saveOwnEntry(.rules, name, entry) }

    public func removeOwnRule(_ name: String) throws -> Bool {
        let removed = try removeOwnEntry(.rules, name)
        // A rule saved again later starts afresh, at the newest item then.
        try write { session in
            try session.execute("DELETE FROM notify_mark WHERE user_id = \(userID) AND rule = ?", [.text("own/" + name)])
        }
        return removed
    }

    /// A table of things each user names for themselves.
    enum OwnEntries {
        case views, rules

        var table: String { self == .views ? "user_view" : "user_rule" }
        /// The column beside the name: a view's filter, a rule's JSON entry.
        var column: String { self == .views ? "expression" : "entry" }
    }

    /// This store's user's entries of `kind`, by name.
    func ownEntries(_ kind: OwnEntries) throws -> [(name: String, value: String)] {
        try read { session in
            try session.rows("SELECT name, \(kind.column) FROM \(kind.table) WHERE user_id = \(userID) ORDER BY name").map {
                (try $0.get(0, as: String.self) ?? "", try $0.get(1, as: String.self) ?? "")
            }
        }
    }

    /// Saves this store's user's entry `name` of `kind`, replacing one of that name.
    func saveOwnEntry(_ kind: OwnEntries, _ name: String, _ value: String) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO \(kind.table) (user_id, name, \(kind.column)) VALUES (\(userID), ?, ?)
                ON CONFLICT (user_id, name) DO UPDATE SET \(kind.column) = excluded.\(kind.column)
                """, [.text(name), .text(value)])
        }
    }

    /// Removes this store's user's entry `name` of `kind`; whether there was one.
    func removeOwnEntry(_ kind: OwnEntries, _ name: String) throws -> Bool {
        try write { session in
            try session.execute("DELETE FROM \(kind.table) WHERE user_id = \(userID) AND name = ?", [.text(name)]) == 1
        }
    }

    public func everyonesRules() throws -> [(user: String, name: String, entry: String)] {
        try read { session in
            try session.rows(
                "SELECT u.name, r.name, r.entry FROM user_rule r JOIN aggr_user u ON u.id = r.user_id ORDER BY u.name, r.name"
            ).map { (try $0.get(0, as: String.self) ?? "", try $0.get(1, as: String.self) ?? "", try $0.get(2, as: String.self) ?? "") }
        }
    }

    public func anyoneHasPassword() throws -> Bool {
        try read { session in
            try session.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM aggr_user WHERE password_hash IS NOT NULL)", []) ?? false
        }
    }

    public func passwordHash(of name: String) throws -> String? {
        try read { session in try session.value(String.self, "SELECT password_hash FROM aggr_user WHERE name = ?", [.text(name)]) }
    }
}
