import Foundation
internal import GRDB

extension Store {
    /// The counters an action may move at once (a like counted before the next refresh).
    package static let actionMetrics: Set<String> = ["likes", "stars", "replies", "comments"]

    /// The actions done on each of `refs` that has any.
    public func actionStates(of refs: [Int64]) throws -> [Int64: Set<ItemAction>] {
        guard !refs.isEmpty else { return [:] }
        return try read { db in
            var states: [Int64: Set<ItemAction>] = [:]
            for chunk in stride(from: 0, to: refs.count, by: 500).map({ refs[$0..<min($0 + 500, refs.count)] }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                for row in try Row.fetchAll(
                    db, sql: "SELECT ref, action FROM item_action WHERE ref IN (\(marks))", arguments: StatementArguments(Array(chunk)))
                {
                    if let action = ItemAction(rawValue: row[1]) { states[row[0], default: []].insert(action) }
                }
            }
            return states
        }
    }

    /// Records `action` as done on `ref` (or undone), moving counter `metric` by `delta`
    /// in the same write; returns whether the item exists.
    @discardableResult
    public func setActionState(_ action: ItemAction, on ref: Int64, done: Bool, metric: String?, delta: Int, now: Date) throws -> Bool {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM item WHERE ref = ?", arguments: [ref]) == true else { return false }
            if done {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO item_action (ref, action, done_at) VALUES (?, ?, ?)",
                    arguments: [ref, action.rawValue, Self.millis(now)])
            } else {
                try db.execute(sql: "DELETE FROM item_action WHERE ref = ? AND action = ?", arguments: [ref, action.rawValue])
            }
            if let metric, Self.actionMetrics.contains(metric), delta != 0 {
                try db.execute(
                    sql: "UPDATE item SET \(metric) = max(0, coalesce(\(metric), 0) + ?) WHERE ref = ?", arguments: [delta, ref])
            }
            try Self.noteTimelineChange(in: db)
            return true
        }
    }

    /// `provider`'s last daily check-in, or nil when it never checked in.
    public func lastCheckin(provider: String) throws -> CheckinRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT day, streak, at FROM checkin WHERE provider = ?", arguments: [provider]).map {
                CheckinRecord(day: $0["day"], streak: $0["streak"], at: Self.date($0["at"]))
            }
        }
    }

    /// Keeps `record` as `provider`'s last check-in.
    public func saveCheckin(_ record: CheckinRecord, provider: String) throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO checkin (provider, day, streak, at) VALUES (?, ?, ?, ?)",
                arguments: [provider, record.day, record.streak, Self.millis(record.at)])
        }
    }
}
