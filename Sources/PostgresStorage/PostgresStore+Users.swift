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
        try read { session in
            try session.rows("SELECT name, expression FROM user_view WHERE user_id = \(userID) ORDER BY name").map {
                (try $0.get(0, as: String.self) ?? "", try $0.get(1, as: String.self) ?? "")
            }
        }
    }

    public func saveOwnView(_ name: String, expression: String) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO user_view (user_id, name, expression) VALUES (\(userID), ?, ?)
                ON CONFLICT (user_id, name) DO UPDATE SET expression = excluded.expression
                """, [.text(name), .text(expression)])
        }
    }

    public func removeOwnView(_ name: String) throws -> Bool {
        try write { session in try session.execute("DELETE FROM user_view WHERE user_id = \(userID) AND name = ?", [.text(name)]) == 1 }
    }

    public func ownRules() throws -> [(name: String, entry: String)] {
        try read { session in
            try session.rows("SELECT name, entry FROM user_rule WHERE user_id = \(userID) ORDER BY name").map {
                (try $0.get(0, as: String.self) ?? "", try $0.get(1, as: String.self) ?? "")
            }
        }
    }

    public func saveOwnRule(_ name: String, entry: String) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO user_rule (user_id, name, entry) VALUES (\(userID), ?, ?)
                ON CONFLICT (user_id, name) DO UPDATE SET entry = excluded.entry
                """, [.text(name), .text(entry)])
        }
    }

    public func removeOwnRule(_ name: String) throws -> Bool {
        try write { session in
            let removed = try session.execute("DELETE FROM user_rule WHERE user_id = \(userID) AND name = ?", [.text(name)]) == 1
            // A rule saved again later starts afresh, at the newest item then.
            try session.execute("DELETE FROM notify_mark WHERE user_id = \(userID) AND rule = ?", [.text("own/" + name)])
            return removed
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
