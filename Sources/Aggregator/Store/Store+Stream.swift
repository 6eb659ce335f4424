import Foundation
internal import GRDB

extension Store {
    /// Stores batches of items in one transaction: `nextBatch` is called until it returns
    /// nil, and when it throws nothing of the stream is kept.
    ///
    /// Each batch is grouped by provider and section in order of appearance; sections are
    /// created with the given key as title unless one is stored already. Only one batch is
    /// in memory at a time, so a stream of any length costs the memory of one batch.
    public func ingestStream(now: Date, nextBatch: () throws -> [Item]?) throws -> IngestResult {
        try write { db in
            // One long transaction touches many pages: a larger cache keeps them from being
            // spilled to the log and read back again and again.
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
            try db.execute(sql: "PRAGMA cache_size = -16384")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            var total = IngestResult()
            let section = try db.cachedStatement(
                sql: "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            var known: Set<String> = []
            while let batch = try nextBatch() {
                var groups: [String: [Item]] = [:]
                var order: [String] = []
                for item in batch {
                    let prepared = item.preparedForStorage()
                    let key = prepared.provider + "\u{0}" + prepared.section
                    if groups[key] == nil { order.append(key) }
                    groups[key, default: []].append(prepared)
                }
                for key in order {
                    let group = groups[key]!
                    if known.insert(key).inserted {
                        try section.execute(arguments: [group[0].provider, group[0].section, "\(group[0].provider)/\(group[0].section)"])
                    }
                    let target = Section(provider: group[0].provider, key: group[0].section, title: "")
                    total = total + (try Self.ingest(group, section: target, now: now, in: db))
                }
            }
            if total.new + total.updated > 0 { try Self.noteTimelineChange(in: db) }
            return total
        }
    }
}
