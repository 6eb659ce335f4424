import Foundation
internal import GRDB

extension Store {
    /// Marks the items numbered `refs` read (or unread); returns how many exist.
    @discardableResult
    public func markRead(refs: [Int64], read: Bool = true, now: Date = Date()) throws -> Int {
        try write { db in
            let statement = try db.cachedStatement(sql: "UPDATE item SET read_at = ? WHERE ref = ?")
            var found = 0
            for ref in refs {
                try statement.execute(arguments: [read ? Self.millis(now) : nil, ref])
                found += db.changesCount
            }
            if found > 0 { try Self.noteTimelineChange(in: db) }
            return found
        }
    }

    /// Saves (stars) the items numbered `refs`, or unsaves them; returns how many exist.
    @discardableResult
    public func markSaved(refs: [Int64], saved: Bool = true, now: Date = Date()) throws -> Int {
        try write { db in
            // Saving again keeps the first time it was saved.
            let statement = try db.cachedStatement(
                sql: saved
                    ? "UPDATE item SET saved_at = coalesce(saved_at, ?) WHERE ref = ?" : "UPDATE item SET saved_at = NULL WHERE ref = ?")
            var found = 0
            for ref in refs {
                try statement.execute(arguments: saved ? [Self.millis(now), ref] : [ref])
                found += db.changesCount
            }
            if found > 0 { try Self.noteTimelineChange(in: db) }
            return found
        }
    }

    /// Marks every unread item read, or only those of `providers` when given; returns the count.
    @discardableResult
    public func markAllRead(providers: [String] = [], now: Date = Date()) throws -> Int {
        try write { db in
            var sql = "UPDATE item SET read_at = ? WHERE read_at IS NULL"
            var arguments: [DatabaseValueConvertible?] = [Self.millis(now)]
            if !providers.isEmpty {
                sql += " AND provider IN (\(Array(repeating: "?", count: providers.count).joined(separator: ", ")))"
                arguments += providers as [DatabaseValueConvertible?]
            }
            try db.execute(sql: sql, arguments: StatementArguments(arguments))
            let marked = db.changesCount
            if marked > 0 { try Self.noteTimelineChange(in: db) }
            return marked
        }
    }
}

extension Store {
    /// Marks every unread item `query` selects read (a tab, a view); returns the count.
    @discardableResult
    public func markRead(matching query: TimelineQuery, now: Date = Date()) throws -> Int {
        var query = query
        query.cursor = nil
        query.unreadOnly = true
        let (conditions, arguments) = Self.conditions(of: query)
        var inner = "SELECT i.ref FROM item i"
        if !conditions.isEmpty { inner += " WHERE " + conditions.joined(separator: " AND ") }
        return try write { db in
            try db.execute(
                sql: "UPDATE item SET read_at = ? WHERE ref IN (\(inner))",
                arguments: StatementArguments([Self.millis(now)] + arguments))
            let marked = db.changesCount
            if marked > 0 { try Self.noteTimelineChange(in: db) }
            return marked
        }
    }
}
