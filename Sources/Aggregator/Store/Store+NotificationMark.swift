import Foundation
internal import GRDB

extension Store {
    /// The number of the newest stored item (0 when the store is empty).
    public func latestRef() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT max(ref) FROM item") ?? 0 }
    }

    /// How far each notification rule has looked: rule name → the highest item number seen.
    public func notificationMarks() throws -> [String: Int64] {
        try read { db in
            var marks: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rule, last_ref FROM notify_mark") { marks[row[0]] = row[1] }
            return marks
        }
    }

    /// Records that rule `name` has looked at every item up to `ref`; a new rule starts at
    /// `ref` (no backlog).
    public func setNotificationMark(rule name: String, ref: Int64, now: Date = Date()) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO notify_mark (rule, last_ref, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (rule) DO UPDATE SET last_ref = max(last_ref, excluded.last_ref)
                    """,
                arguments: [name, ref, Self.millis(now)])
        }
    }

    public func advanceNotificationMark(rule name: String, from: Int64, to: Int64) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE notify_mark SET last_ref = ? WHERE rule = ? AND last_ref = ?", arguments: [to, name, from])
            return db.changesCount == 1
        }
    }
}
