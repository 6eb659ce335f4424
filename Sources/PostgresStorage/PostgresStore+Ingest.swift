import Aggregator
import Foundation
import PostgresNIO

extension PostgresStore {
    /// The lock every ingest takes for its transaction: item numbers are drawn and committed
    /// in one order, so a reader app syncing "numbers above n" never skips one committed late.
    static let ingestLock: Int64 = 0x6167_6772_0002

    public func ingest(
        _ items: [Item], section: Section, now: Date, keepSectionTitle: Bool, validators: [String: HTTPValidators], listed: Bool
    ) throws -> IngestResult {
        let records = items.map { ItemRecord($0.preparedForStorage(), indexed: true) }
        return try write { session in
            try session.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.ingestLock)])
            return try Self.ingest(
                records, section: section, now: now, keepSectionTitle: keepSectionTitle, validators: validators, listed: listed,
                in: session)
        }
    }

    /// Stores `writes` in one transaction, each in a savepoint of its own: a write that fails
    /// is rolled back alone and reported alone; when the commit fails, every write fails.
    public func write(_ writes: [QueuedWrite]) -> [Result<IngestResult, any Error>] {
        var results: [Result<IngestResult, any Error>] = []
        do {
            try write { session in
                results = []
                try session.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.ingestLock)])
                for write in writes {
                    try session.execute("SAVEPOINT queued_write")
                    do {
                        var result = IngestResult()
                        switch write {
                        case .ingest(let items, let section, let now, let validators):
                            result = try Self.ingest(
                                items.records, section: section, now: now, keepSectionTitle: false, validators: validators, listed: true,
                                in: session)
                        case .providerState(let state):
                            try Self.saveProviderState(state, in: session)
                        }
                        try session.execute("RELEASE SAVEPOINT queued_write")
                        results.append(.success(result))
                    } catch {
                        try session.execute("ROLLBACK TO SAVEPOINT queued_write")
                        results.append(.failure(Self.storeError(error, at: session.place)))
                    }
                }
            }
            return results
        } catch {
            return writes.map { _ in .failure(error) }
        }
    }

    public func ingestStream(now: Date, nextBatch: @escaping @Sendable () throws -> [Item]?) throws -> IngestResult {
        // Reading and preparing the next batch run on a thread of their own beside the writes.
        let batches = BatchHandOff<[[ItemRecord]]> {
            guard let batch = try nextBatch() else { return nil }
            var groups: [[ItemRecord]] = []
            var positions: [String: Int] = [:]
            for item in batch {
                let record = ItemRecord(item.preparedForStorage(), indexed: true)
                let key = record.item.provider + "\u{0}" + record.item.section
                if let position = positions[key] {
                    groups[position].append(record)
                } else {
                    positions[key] = groups.count
                    groups.append([record])
                }
            }
            return groups
        }
        defer { batches.finish() }
        return try write { session in
            try session.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.ingestLock)])
            var total = IngestResult()
            var known: Set<String> = []
            while let groups = try batches.next() {
                for group in groups {
                    let first = group[0].item
                    if known.insert(first.provider + "\u{0}" + first.section).inserted {
                        try session.execute(
                            "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                            [.text(first.provider), .text(first.section), .text("\(first.provider)/\(first.section)")])
                    }
                    let target = Section(provider: first.provider, key: first.section, title: "")
                    total = total + (try Self.ingest(group, section: target, now: now, in: session))
                }
            }
            if total.new + total.updated > 0 { try Self.noteTimelineChange(in: session) }
            return total
        }
    }

    /// One section's fetch inside the caller's transaction: validators, the section row (its
    /// key redacted), the items, and the change count when a listing changed.
    static func ingest(
        _ records: [ItemRecord], section: Section, now: Date, keepSectionTitle: Bool, validators: [String: HTTPValidators],
        listed: Bool, in session: PostgresSession
    ) throws -> IngestResult {
        var section = section
        section.key = SecretRedactor.redact(url: section.key)
        for (url, value) in validators { try saveValidators(value, for: url, provider: section.provider, now: now, in: session) }
        if listed {
            let onConflict = keepSectionTitle ? "DO NOTHING" : "DO UPDATE SET title = excluded.title"
            try session.execute(
                "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT (provider, key) \(onConflict)",
                [.text(section.provider), .text(section.key), .text(section.title)])
        }
        let result = try ingest(records, section: section, now: now, in: session)
        if result.new + result.updated > 0 { try noteTimelineChange(in: session) }
        return result
    }

    private static let contentNames = ItemRow.content.map(\.name)

    /// The columns a new item sets after its number, in the order ``insert(_:in:)`` binds them.
    private static let insertColumns = 6 + contentNames.count + 2

    /// New items in rows of at most this many per statement: one round trip for many (the
    /// bound values stay far below the protocol's 65,535).
    static let insertRows = 500

    /// Inserts `rows` (each ``insertColumns`` values), numbered in order; how many were new.
    static func insert(_ rows: [[SQLValue]], in session: PostgresSession) throws -> Int {
        var inserted = 0
        for start in stride(from: 0, to: rows.count, by: insertRows) {
            let chunk = rows[start..<min(start + insertRows, rows.count)]
            let row = "(nextval('item_ref'), \(SQLFragment.marks(insertColumns)))"
            inserted += try session.execute(
                SQLFragment(
                    """
                    INSERT INTO item (ref, provider, section, item_id, canonical_url, published, first_seen, \
                    \(contentNames.joined(separator: ", ")), search_title, search_text)
                    VALUES \(Array(repeating: row, count: chunk.count).joined(separator: ", "))
                    ON CONFLICT (provider, item_id) DO NOTHING
                    """, Array(chunk.joined())))
        }
        return inserted
    }

    private static let updateSQL =
        "UPDATE item SET \(contentNames.map { "\($0) = ?" }.joined(separator: ", ")), canonical_url = ?, search_title = ?, search_text = ? WHERE ref = ?"

    static func value(_ column: ColumnValue) -> SQLValue {
        switch column {
        case .text(let text): .text(text)
        case .integer(let number): .integer(number)
        }
    }

    /// Stores `records` of one provider×section inside the caller's transaction: new ones
    /// inserted, changed ones updated, removed ones (tombstoned) skipped, as the SQLite store.
    static func ingest(_ records: [ItemRecord], section: Section, now: Date, in session: PostgresSession) throws -> IngestResult {
        var result = IngestResult()
        let firstSeen = millis(now)
        // The last occurrence of an id in one batch wins; items keep batch order so numbers
        // follow upstream order.
        var lastIndex: [String: Int] = [:]
        for (index, record) in records.enumerated() {
            guard record.item.provider == section.provider else {
                throw StoreError(
                    path: session.place,
                    message: localized("item \(record.item.id) of provider \(record.item.provider) ingested into \(section.provider)"))
            }
            lastIndex[record.item.id] = index
        }
        let ids = Array(lastIndex.keys)
        guard !ids.isEmpty else { return result }
        // What is stored of these ids, in one read: content columns to compare, and tombstones.
        var stored: [String: (ref: Int64, row: PostgresRandomAccessRow)] = [:]
        for row in try session.rows(
            "SELECT item_id, ref, \(contentNames.joined(separator: ", ")) FROM item WHERE provider = ? AND item_id = ANY(?)",
            [.text(section.provider), .texts(ids)])
        {
            stored[try row.get(0, as: String.self) ?? ""] = (try row.get(1, as: Int64.self) ?? 0, row)
        }
        let tombstoned = Set(
            try session.rows(
                "UPDATE tombstone SET last_seen = ? WHERE provider = ? AND item_id = ANY(?) RETURNING item_id",
                [.integer(firstSeen), .text(section.provider), .texts(ids.filter { stored[$0] == nil })]
            ).compactMap { try $0.get(0, as: String.self) })
        var newRows: [[SQLValue]] = []
        for (index, record) in records.enumerated() where lastIndex[record.item.id] == index {
            let item = record.item
            let content = ItemRow.content.map { value($0.value(record)) }
            let indexed = record.search ?? FullTextIndex.Entry(item).indexed
            let search = searchColumns(indexed)
            if let (ref, row) = stored[item.id] {
                var same = true
                for (offset, column) in content.enumerated() {
                    let current: SQLValue =
                        switch column {
                        case .integer: .integer(try row.get(offset + 2, as: Int64.self))
                        default: .text(try row.get(offset + 2, as: String.self))
                        }
                    if current != column {
                        same = false
                        break
                    }
                }
                if same {
                    result.unchanged += 1
                    continue
                }
                try session.execute(
                    updateSQL, content + [.text(record.canonicalURL), .text(search.title), .text(search.text), .integer(ref)])
                result.updated += 1
            } else if tombstoned.contains(item.id) {
                result.tombstoned += 1
            } else {
                let identity: [SQLValue] = [
                    .text(item.provider), .text(item.section), .text(item.id), .text(record.canonicalURL),
                    .integer(millis(item.published)), .integer(firstSeen),
                ]
                newRows.append(identity + content + [.text(search.title), .text(search.text)])
            }
        }
        // Under the ingest lock no other writer inserts meanwhile: the looked-up ids are new.
        result.new += try insert(newRows, in: session)
        return result
    }
}
