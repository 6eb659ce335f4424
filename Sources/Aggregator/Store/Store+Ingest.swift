import Foundation
internal import GRDB

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
        let records = items.map { ItemRecord($0.preparedForStorage()) }
        return try write { db in
            try Self.ingest(
                records, section: section, now: now, keepSectionTitle: keepSectionTitle, validators: validators, listed: listed, in: db)
        }
    }

    /// Stores `writes` in one transaction; a write that fails is rolled back alone and
    /// reported alone; when the commit fails, every write fails.
    ///
    /// The writes are first stored together without savepoints: SQLite 3.40's FTS5 writes
    /// its pending index out as a new segment at every savepoint (and at every statement
    /// that needs a statement journal), so a savepoint per write made the search index
    /// write, and later merge, a segment for each section a refresh stored. Only when
    /// something fails is the transaction rolled back and the writes stored again, each in
    /// a savepoint of its own, so the others still land.
    public func write(_ writes: [QueuedWrite]) -> [Result<IngestResult, any Error>] {
        var failedInWrite = false
        do {
            var results: [Result<IngestResult, any Error>] = []
            try write { db in
                results = []
                for write in writes {
                    do {
                        results.append(.success(try Self.store(write, in: db)))
                    } catch {
                        failedInWrite = true
                        throw error
                    }
                }
            }
            return results
        } catch {
            // The transaction itself failed (busy past the timeout, read-only, the commit):
            // every write fails with it, without waiting a second time. One write alone gets
            // its own error; several are tried one by one below.
            guard failedInWrite, writes.count > 1 else { return writes.map { _ in .failure(error) } }
        }
        var results: [Result<IngestResult, any Error>] = []
        do {
            try write { db in
                results = []
                for write in writes {
                    do {
                        var result = IngestResult()
                        try db.inSavepoint {
                            result = try Self.store(write, in: db)
                            return .commit
                        }
                        results.append(.success(result))
                    } catch let error as DatabaseError {
                        results.append(.failure(StoreError(path: path, message: Self.explain(error))))
                    } catch {
                        results.append(.failure(error))
                    }
                }
            }
            return results
        } catch {
            return writes.map { _ in .failure(error) }
        }
    }

    /// Stores one queued write inside the caller's transaction.
    private static func store(_ write: QueuedWrite, in db: Database) throws -> IngestResult {
        switch write {
        case .ingest(let items, let section, let now, let validators):
            return try ingest(
                items.records, section: section, now: now, keepSectionTitle: false, validators: validators, listed: true, in: db)
        case .providerState(let state):
            try saveProviderState(state, in: db)
            return IngestResult()
        }
    }

    /// One section's fetch inside the caller's transaction: validators, the section row
    /// (its key redacted), the items, and the change count when anything a listing shows changed.
    static func ingest(
        _ records: [ItemRecord], section: Section, now: Date, keepSectionTitle: Bool, validators: [String: HTTPValidators],
        listed: Bool, in db: Database
    ) throws -> IngestResult {
        var section = section
        section.key = SecretRedactor.redact(url: section.key)
        for (url, value) in validators { try saveValidators(value, for: url, provider: section.provider, now: now, in: db) }
        if listed {
            let onConflict = keepSectionTitle ? "DO NOTHING" : "DO UPDATE SET title = excluded.title"
            try db.cachedStatement(sql: "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT \(onConflict)")
                .execute(arguments: [section.provider, section.key, section.title])
        }
        let result = try ingest(records, section: section, now: now, in: db)
        if result.new + result.updated > 0 { try noteTimelineChange(in: db) }
        return result
    }

    /// Stores `records`, prepared for storage, of one provider×section inside the caller's transaction.
    static func ingest(_ records: [ItemRecord], section: Section, now: Date, in db: Database) throws -> IngestResult {
        var result = IngestResult()
        let lookup = try db.cachedStatement(sql: ItemRow.lookupSQL)
        let insert = PreparedStatement(try db.cachedStatement(sql: ItemRow.insertSQL), in: db)
        let update = try db.cachedStatement(sql: ItemRow.updateSQL)
        let tombstone = PreparedStatement(
            try db.cachedStatement(sql: "UPDATE tombstone SET last_seen = ? WHERE provider = ? AND item_id = ?"), in: db)
        let fullText = try FullTextIndex.Inserter(in: db)
        let firstSeen = millis(now)
        // Past the highest number ever removed: numbers are never given twice (schema 8).
        let floor = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM ref_floor WHERE id = 1")) ?? 0
        let top = try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(ref), 0) FROM item")) ?? 0
        var nextRef: Int64? = floor > top ? floor + 1 : nil
        // A provider nothing was ever removed from (every import into a new database) skips
        // the look-up per item.
        let removedBefore =
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM tombstone WHERE provider = ?)"), arguments: [section.provider])
            ?? true
        /// Whether `item` was removed for good; notes that this refresh met it again.
        func metTombstone(_ item: Item) throws -> Bool {
            guard removedBefore else { return false }
            tombstone.bind(firstSeen, at: 1)
            tombstone.bind(item.provider, at: 2)
            tombstone.bind(item.id, at: 3)
            try tombstone.execute()
            return db.changesCount > 0
        }
        /// Inserts `record` unless its id is stored already; whether it did.
        func insertNew(_ record: ItemRecord) throws -> Bool {
            let item = record.item
            let identity: [ColumnValue] = [
                .text(item.provider), .text(item.section), .text(item.id), .text(record.canonicalURL),
                .integer(millis(item.published)), .integer(firstSeen),
            ]
            insert.bind(ColumnValue.integer(nextRef), at: 1)
            for (offset, value) in identity.enumerated() { insert.bind(value, at: Int32(offset + 2)) }
            for (offset, column) in ItemRow.content.enumerated() {
                insert.bind(column.value(record), at: Int32(identity.count + offset + 2))
            }
            try insert.execute()
            guard db.changesCount > 0 else { return false }
            nextRef = nil
            try fullText.insert(record.search ?? FullTextIndex.Entry(item).indexed, ref: db.lastInsertedRowID)
            return true
        }
        // The last occurrence of an id in one batch wins, as it would across two fetches;
        // items are stored in batch order so refs follow upstream order.
        var lastIndex: [String: Int] = [:]
        for (index, record) in records.enumerated() { lastIndex[record.item.id] = index }
        // After a new item the next is likely new too (an import, a busy section): it is
        // inserted first and looked up only when its id turns out to be stored already.
        var expectNew = false
        for (index, record) in records.enumerated() where lastIndex[record.item.id] == index {
            let item = record.item
            guard item.provider == section.provider else {
                throw StoreError(path: "", message: "item \(item.id) of provider \(item.provider) ingested into \(section.provider)")
            }
            if expectNew {
                if try metTombstone(item) {
                    result.tombstoned += 1
                    continue
                }
                if try insertNew(record) {
                    result.new += 1
                    continue
                }
            }
            if let row = try Row.fetchOne(lookup, arguments: [item.provider, item.id]) {
                expectNew = false
                // In the order the lookup selects them, so a stored row compares column by column.
                let compared = ItemRow.content.map { $0.value(record).databaseValue }
                let ref: Int64 = row[0]
                let same = zip(1..<row.count, compared).allSatisfy { index, value in row[index] as DatabaseValue == value }
                if same {
                    result.unchanged += 1
                    continue
                }
                let old = FullTextIndex.Entry(
                    title: row[1 + ItemRow.contentIndex("title")], summary: row[1 + ItemRow.contentIndex("summary")],
                    author: row[1 + ItemRow.contentIndex("author")], tags: ItemRow.decodeTags(row[1 + ItemRow.contentIndex("tags")]))
                let entry = FullTextIndex.Entry(item)
                try update.execute(arguments: StatementArguments(compared + [record.canonicalURL.databaseValue, ref.databaseValue]))
                if old != entry {
                    try FullTextIndex.delete(old, ref: ref, in: db)
                    try FullTextIndex.insert(entry, ref: ref, in: db)
                }
                result.updated += 1
            } else if try metTombstone(item) {
                result.tombstoned += 1
            } else {
                _ = try insertNew(record)
                result.new += 1
                expectNew = true
            }
        }
        return result
    }
}
