import Foundation
internal import GRDB

extension Store {
    /// Stores batches of items in one transaction: `nextBatch` is called until it returns
    /// nil, and when it throws nothing of the stream is kept.
    ///
    /// Each batch is grouped by provider and section in order of appearance; sections are
    /// created with the given key as title unless one is stored already. At most four
    /// batches are in memory at a time (one written, two waiting, one being read), so a
    /// stream of any length costs the memory of a few batches.
    public func ingestStream(now: Date, nextBatch: @escaping @Sendable () throws -> [Item]?) throws -> IngestResult {
        // Reading, parsing and preparing the next batch (credentials redacted, columns
        // encoded, CJK cut for the index) run on a thread of their own beside the writes.
        let batches = BatchHandOff<[StreamGroup]> {
            guard let batch = try nextBatch() else { return nil }
            var groups: [StreamGroup] = []
            var positions: [String: Int] = [:]
            for item in batch {
                let record = ItemRecord(item.preparedForStorage(), indexed: true)
                let key = record.item.provider + "\u{0}" + record.item.section
                if let position = positions[key] {
                    groups[position].records.append(record)
                } else {
                    positions[key] = groups.count
                    groups.append(StreamGroup(key: key, records: [record]))
                }
            }
            return groups
        }
        defer { batches.finish() }
        return try write { db in
            // One long transaction touches many pages: a larger cache keeps them from being
            // spilled to the log and read back again and again.
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
            try db.execute(sql: "PRAGMA cache_size = -16384")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            var total = IngestResult()
            let section = try db.cachedStatement(
                sql: "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            var known: Set<String> = []
            while let groups = try batches.next() {
                for group in groups {
                    let first = group.records[0].item
                    if known.insert(group.key).inserted {
                        try section.execute(arguments: [first.provider, first.section, "\(first.provider)/\(first.section)"])
                    }
                    let target = Section(provider: first.provider, key: first.section, title: "")
                    total = total + (try Self.ingest(group.records, section: target, now: now, in: db))
                }
            }
            if total.new + total.updated > 0 { try Self.noteTimelineChange(in: db) }
            return total
        }
    }
}

/// The items of one stream batch that belong to one provider×section, in batch order.
struct StreamGroup: Sendable {
    var key: String
    var records: [ItemRecord]
}
