import Foundation
import GRDB

/// What one ingest changed.
public struct IngestResult: Sendable, Equatable {
    public var new = 0
    public var updated = 0
    public var unchanged = 0
    /// Items skipped because they were pruned or deleted before.
    public var tombstoned = 0

    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0, tombstoned: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
        self.tombstoned = tombstoned
    }

    public static func + (lhs: IngestResult, rhs: IngestResult) -> IngestResult {
        IngestResult(
            new: lhs.new + rhs.new, updated: lhs.updated + rhs.updated,
            unchanged: lhs.unchanged + rhs.unchanged, tombstoned: lhs.tombstoned + rhs.tombstoned)
    }
}

extension Store {
    /// Stores the items of one provider×section fetch in one transaction.
    ///
    /// An item already stored (same provider and id) is updated in place when anything it
    /// carries changed; its section, first-seen time and read state are kept. Items that
    /// were pruned or deleted before are skipped, so they never come back.
    /// With `keepSectionTitle`, a title already stored for the section wins over
    /// `section.title` (imports know keys but not the providers' human titles).
    ///
    /// `validators` are the HTTP validators of the responses the items came from, kept for
    /// the section's provider; they are saved in the same transaction, so a failed ingest never leaves a 304 that would hide
    /// the items next time. Every item is ``Item/preparedForStorage()`` first: no credential
    /// or control character reaches the database.
    ///
    /// With `listed` false no section row is written: a thread fetched on demand is stored
    /// without becoming a section of its own in lists and reader apps.
    @discardableResult
    public func ingest(
        _ items: [Item], section: Section, now: Date = Date(), keepSectionTitle: Bool = false,
        validators: [String: HTTPValidators] = [:], listed: Bool = true
    ) throws -> IngestResult {
        var section = section
        section.key = SecretRedactor.redact(url: section.key)
        let items = items.map { $0.preparedForStorage() }
        return try write { db in
            for (url, value) in validators { try Self.saveValidators(value, for: url, provider: section.provider, now: now, in: db) }
            if listed {
                let onConflict = keepSectionTitle ? "DO NOTHING" : "DO UPDATE SET title = excluded.title"
                try db.execute(
                    sql: "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT \(onConflict)",
                    arguments: [section.provider, section.key, section.title])
            }
            return try Self.ingest(items, section: section, now: now, in: db)
        }
    }

    static func ingest(_ items: [Item], section: Section, now: Date, in db: Database) throws -> IngestResult {
        var result = IngestResult()
        let lookup = try db.cachedStatement(
            sql: """
                SELECT ref, kind, title, url, author, author_url, summary, content, updated, tags,
                       replies, comments, stars, forks, likes, views, image, extra
                FROM item WHERE provider = ? AND item_id = ?
                """)
        let insert = PreparedStatement(
            try db.cachedStatement(
                sql: """
                    INSERT INTO item (provider, section, item_id, kind, title, url, canonical_url, author, author_url, summary,
                        content, published, updated, tags, replies, comments, stars, forks, likes, views, image, extra, first_seen)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (provider, item_id) DO NOTHING
                    """), in: db)
        let update = try db.cachedStatement(
            sql: """
                UPDATE item SET kind = ?, title = ?, url = ?, author = ?, author_url = ?, summary = ?,
                    content = ?, updated = ?, tags = ?, replies = ?, comments = ?, stars = ?, forks = ?, likes = ?,
                    views = ?, image = ?, extra = ?, canonical_url = ?
                WHERE ref = ?
                """)
        let tombstone = PreparedStatement(
            try db.cachedStatement(sql: "UPDATE tombstone SET last_seen = ? WHERE provider = ? AND item_id = ?"), in: db)
        let fullText = try FullTextIndex.Inserter(in: db)
        let firstSeen = millis(now)
        /// Whether `item` was removed for good; notes that this refresh met it again.
        func metTombstone(_ item: Item) throws -> Bool {
            tombstone.bind(firstSeen, at: 1)
            tombstone.bind(item.provider, at: 2)
            tombstone.bind(item.id, at: 3)
            try tombstone.execute()
            return db.changesCount > 0
        }
        /// Inserts `item` unless its id is stored already; whether it did.
        func insertNew(_ item: Item, tags: String, extra: String, updated: Int64?) throws -> Bool {
            let values: [String?] = [
                item.provider, item.section, item.id, item.kind.rawValue, item.title, item.url, WebURL.canonical(item.url),
                item.author?.name, item.author?.url, item.summary, item.content,
            ]
            for (offset, value) in values.enumerated() { insert.bind(value, at: Int32(offset + 1)) }
            insert.bind(millis(item.published), at: 12)
            insert.bind(updated, at: 13)
            insert.bind(tags, at: 14)
            let counts = [item.metrics.replies, item.metrics.comments, item.metrics.stars, item.metrics.forks, item.metrics.likes]
            for (offset, count) in counts.enumerated() { insert.bind(count, at: Int32(offset + 15)) }
            insert.bind(item.metrics.views, at: 20)
            insert.bind(item.image, at: 21)
            insert.bind(extra, at: 22)
            insert.bind(firstSeen, at: 23)
            try insert.execute()
            guard db.changesCount > 0 else { return false }
            try fullText.insert(
                title: item.title, summary: item.summary, author: item.author?.name, tags: item.tags, ref: db.lastInsertedRowID)
            return true
        }
        // The last occurrence of an id in one batch wins, as it would across two fetches;
        // items are stored in batch order so refs follow upstream order.
        var lastIndex: [String: Int] = [:]
        for (index, item) in items.enumerated() { lastIndex[item.id] = index }
        // After a new item the next is likely new too (an import, a busy section): it is
        // inserted first and looked up only when its id turns out to be stored already.
        var expectNew = false
        for (index, item) in items.enumerated() where lastIndex[item.id] == index {
            guard item.provider == section.provider else {
                throw StoreError(path: "", message: "item \(item.id) of provider \(item.provider) ingested into \(section.provider)")
            }
            let tags = ItemRow.encodeTags(item.tags)
            let extra = ItemRow.encodeExtra(item.extra)
            let updated = item.updated.map(millis)
            if expectNew {
                if try metTombstone(item) {
                    result.tombstoned += 1
                    continue
                }
                if try insertNew(item, tags: tags, extra: extra, updated: updated) {
                    result.new += 1
                    continue
                }
            }
            if let row = try Row.fetchOne(lookup, arguments: [item.provider, item.id]) {
                expectNew = false
                // In the order the lookup selects them, so a stored row compares column by column.
                let compared: [DatabaseValueConvertible?] = [
                    item.kind.rawValue, item.title, item.url, item.author?.name, item.author?.url, item.summary, item.content, updated,
                    tags, item.metrics.replies, item.metrics.comments, item.metrics.stars, item.metrics.forks, item.metrics.likes,
                    item.metrics.views, item.image, extra,
                ]
                let ref: Int64 = row[0]
                let same = zip(1..<row.count, compared).allSatisfy { index, value in
                    row[index] as DatabaseValue == (value?.databaseValue ?? .null)
                }
                if same {
                    result.unchanged += 1
                    continue
                }
                let old = FullTextIndex.Entry(title: row[2], summary: row[6], author: row[4], tags: ItemRow.decodeTags(row[9]))
                let entry = FullTextIndex.Entry(title: item.title, summary: item.summary, author: item.author?.name, tags: item.tags)
                try update.execute(arguments: StatementArguments(compared + [WebURL.canonical(item.url), ref]))
                if old != entry {
                    try FullTextIndex.delete(old, ref: ref, in: db)
                    try FullTextIndex.insert(entry, ref: ref, in: db)
                }
                result.updated += 1
            } else if try metTombstone(item) {
                result.tombstoned += 1
            } else {
                _ = try insertNew(item, tags: tags, extra: extra, updated: updated)
                result.new += 1
                expectNew = true
            }
        }
        return result
    }
}
