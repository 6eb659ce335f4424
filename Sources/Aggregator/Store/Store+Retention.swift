import Foundation
internal import GRDB

extension Store {
    /// How long a tombstone outlives the last refresh that met its item: an item upstream
    /// has not listed for this long is not coming back, so its tombstone can go.
    public static let tombstoneLifetime = TimeSpan(seconds: 90 * 86_400)

    /// Applies `policy` per provider and leaves a tombstone for every removed item, so the
    /// next refresh does not store it again; forgets tombstones older than ``tombstoneLifetime``.
    public func prune(_ policy: RetentionPolicy, now: Date = Date()) throws -> PruneResult {
        try write { db in
            var result = PruneResult()
            let removedAt = Self.millis(now)
            let forgetBefore = Self.millis(now.addingTimeInterval(-Double(Self.tombstoneLifetime.seconds)))
            try db.execute(
                sql: "DELETE FROM tombstone WHERE max(removed_at, coalesce(last_seen, 0)) < ?", arguments: [forgetBefore])
            result.forgottenTombstones = db.changesCount
            if let maxAge = policy.maxAge {
                let cutoff = Self.millis(now.addingTimeInterval(-Double(maxAge.seconds)))
                result.byAge = try Self.remove(where: "published < ? AND saved_at IS NULL", arguments: [cutoff], at: removedAt, in: db)
            }
            if let maximum = policy.maxItemsPerProvider {
                // Only providers over the limit need the (per-provider) delete.
                let providers = try String.fetchAll(
                    db, sql: "SELECT provider FROM item WHERE saved_at IS NULL GROUP BY provider HAVING count(*) > ?", arguments: [maximum])
                for provider in providers {
                    result.byCount += try Self.remove(
                        where: """
                            ref IN (SELECT ref FROM item WHERE provider = ? AND saved_at IS NULL
                                    ORDER BY published DESC, item_id LIMIT -1 OFFSET ?)
                            """,
                        arguments: [provider, maximum], at: removedAt, in: db)
                }
            }
            return result
        }
    }

    /// Deletes the items numbered `refs` for good (tombstoned); returns how many existed.
    @discardableResult
    public func remove(refs: [Int64], now: Date = Date()) throws -> Int {
        guard !refs.isEmpty else { return 0 }
        return try write { db in
            let placeholders = Array(repeating: "?", count: refs.count).joined(separator: ", ")
            return try Self.remove(
                where: "ref IN (\(placeholders))", arguments: StatementArguments(refs), at: Self.millis(now), in: db)
        }
    }

    /// Deletes every item of providers not in `keep` (entries removed from the config).
    public func removeProviders(notIn keep: [String], now: Date = Date()) throws -> Int {
        try write { db in
            let placeholders = Array(repeating: "?", count: max(keep.count, 1)).joined(separator: ", ")
            let arguments = keep.isEmpty ? StatementArguments([""]) : StatementArguments(keep)
            return try Self.remove(where: "provider NOT IN (\(placeholders))", arguments: arguments, at: Self.millis(now), in: db)
        }
    }

    /// Runs SQLite's and FTS5's integrity checks, throwing ``StoreError`` on any finding.
    public func checkIntegrity() throws {
        try write { db in
            let findings = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            guard findings == ["ok"] else { throw StoreError(path: path, message: "integrity check: \(findings.joined(separator: "; "))") }
            try db.execute(sql: "INSERT INTO item_fts (item_fts) VALUES ('integrity-check')")
        }
    }

    static func remove(where condition: String, arguments: StatementArguments, at removedAt: Int64, in db: Database) throws -> Int {
        try db.execute(
            sql:
                "INSERT OR REPLACE INTO tombstone (provider, item_id, removed_at) SELECT provider, item_id, \(removedAt) FROM item WHERE \(condition)",
            arguments: arguments)
        try FullTextIndex.deleteRows(where: condition, arguments: arguments, in: db)
        try db.execute(sql: "DELETE FROM item WHERE \(condition)", arguments: arguments)
        let removed = db.changesCount
        if removed > 0 { try noteTimelineChange(in: db) }
        return removed
    }
}
