import Aggregator
import Foundation
import NIOCore
import PostgresNIO

extension PostgresStore {
    /// Items read per statement in an export.
    static let copyBatch = RecordBatches.size

    public func export(_ batch: ([StoredRecord]) throws -> Void) throws {
        try withSnapshot { session in
            var batches = RecordBatches()
            func add(_ record: StoredRecord) throws { try batches.add(record, to: batch) }
            func text(_ row: PostgresRandomAccessRow, _ index: Int) throws -> String { try row.get(index, as: String.self) ?? "" }
            func moment(_ row: PostgresRandomAccessRow, _ index: Int) throws -> Date { Self.date(try row.get(index, as: Int64.self) ?? 0) }
            for row in try session.rows("SELECT provider, key, title FROM section ORDER BY provider, key") {
                try add(.section(provider: try text(row, 0), key: try text(row, 1), title: try text(row, 2)))
            }
            // Items a page at a time, by number, all from the transaction's one snapshot.
            var after: Int64 = 0
            while true {
                let page = try session.rows(
                    "SELECT \(Self.selection) FROM \(from) WHERE i.ref > ? ORDER BY i.ref LIMIT \(Self.copyBatch)", [.integer(after)])
                for row in page { try add(.item(try Self.decode(row))) }
                guard page.count == Self.copyBatch, let last = try page.last?.get(0, as: Int64.self) else { break }
                after = last
            }
            for row in try session.rows("SELECT ref, label FROM item_label WHERE user_id = \(userID) ORDER BY ref, label") {
                try add(.label(ref: try row.get(0, as: Int64.self) ?? 0, label: try text(row, 1)))
            }
            for row in try session.rows("SELECT ref, action, done_at FROM item_action ORDER BY ref, action") {
                if let action = ItemAction(rawValue: try text(row, 1)) {
                    try add(.action(ref: try row.get(0, as: Int64.self) ?? 0, action: action, doneAt: try moment(row, 2)))
                }
            }
            for row in try session.rows("SELECT ref, title, byline, content, text, fetched_at FROM item_article ORDER BY ref") {
                let article = Article(
                    title: try text(row, 1), byline: try row.get(2, as: String.self), content: try text(row, 3), text: try text(row, 4))
                try add(.article(ref: try row.get(0, as: Int64.self) ?? 0, article: article, fetchedAt: try moment(row, 5)))
            }
            for row in try session.rows("SELECT provider, item_id, removed_at, last_seen FROM tombstone") {
                try add(
                    .tombstone(
                        provider: try text(row, 0), id: try text(row, 1), removedAt: try moment(row, 2),
                        lastSeen: try row.get(3, as: Int64.self).map(Self.date)))
            }
            for state in try Self.providerStates(in: session).values.sorted(by: { $0.provider < $1.provider }) {
                try add(.providerState(state))
            }
            for row in try session.rows("SELECT provider, url, etag, last_modified, body_hash, stored_at FROM http_validator") {
                let validators = HTTPValidators(
                    etag: try row.get(2, as: String.self), lastModified: try row.get(3, as: String.self),
                    bodyHash: try row.get(4, as: String.self))
                try add(
                    .validators(provider: try text(row, 0), url: try text(row, 1), validators: validators, storedAt: try moment(row, 5)))
            }
            for row in try session.rows("SELECT rule, last_ref, created_at FROM notify_mark WHERE user_id = \(userID)") {
                try add(.notificationMark(rule: try text(row, 0), ref: try row.get(1, as: Int64.self) ?? 0, createdAt: try moment(row, 2)))
            }
            for row in try session.rows("SELECT site, content_type, data, fetched_at FROM site_icon") {
                let data = try row.get(2, as: ByteBuffer.self).map { Array($0.readableBytesView) } ?? []
                try add(
                    .siteIcon(
                        SiteIcon(
                            site: try text(row, 0), contentType: try row.get(1, as: String.self), data: data, fetchedAt: try moment(row, 3))
                    ))
            }
            for row in try session.rows("SELECT purpose, value, created_at FROM installation_secret") {
                try add(.secret(purpose: try text(row, 0), value: try text(row, 1), createdAt: try moment(row, 2)))
            }
            for row in try session.rows("SELECT provider, day, streak, at FROM checkin") {
                let record = CheckinRecord(
                    day: try text(row, 1), streak: try row.get(2, as: Int64.self).map { Int($0) }, at: try moment(row, 3))
                try add(.checkin(provider: try text(row, 0), record: record))
            }
            let floor = try session.value(
                Int64.self,
                "SELECT greatest((SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM item_ref), (SELECT coalesce(max(ref), 0) FROM item))"
            )
            try add(.refFloor(floor ?? 0))
            try batches.flush(to: batch)
        }
    }

    public func importRecords(_ nextBatch: () throws -> [StoredRecord]?) throws -> StorageCopyCount {
        try write { session in
            try session.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.ingestLock)])
            guard try session.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM item) OR EXISTS (SELECT 1 FROM section)") == false else {
                throw StoreError(
                    path: session.place, message: localized("already holds items or sections; copy into a new, empty database"))
            }
            var count = StorageCopyCount()
            var floor: Int64 = 0
            while let records = try nextBatch() {
                count.add(records)
                for record in records { try insert(record, floor: &floor, in: session) }
            }
            try session.execute(
                "SELECT setval('item_ref', greatest(?, (SELECT coalesce(max(ref), 0) FROM item), 1), ? > 0 OR EXISTS (SELECT 1 FROM item))",
                [.integer(floor), .integer(floor)])
            if count.items > 0 { try Self.noteTimelineChange(in: session) }
            return count
        }
    }

    private static let copiedItemSQL = """
        INSERT INTO item (ref, provider, section, item_id, canonical_url, published, first_seen, \
        \(ItemRow.content.map(\.name).joined(separator: ", ")), search_title, search_text)
        VALUES (\(SQLFragment.marks(7 + ItemRow.content.count + 2)))
        """

    private func insert(_ record: StoredRecord, floor: inout Int64, in session: PostgresSession) throws {
        switch record {
        case .section(let provider, let key, let title):
            try session.execute(
                "INSERT INTO section (provider, key, title) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(provider), .text(key), .text(title)])
        case .item(let stored):
            let item = ItemRecord(stored.item)
            let search = Self.searchColumns(FullTextIndex.Entry(stored.item).indexed)
            let identity: [SQLValue] = [
                .integer(stored.ref), .text(stored.item.provider), .text(stored.item.section), .text(stored.item.id),
                .text(item.canonicalURL),
                .integer(Self.millis(stored.item.published)), .integer(Self.millis(stored.firstSeen)),
            ]
            try session.execute(
                Self.copiedItemSQL,
                identity + ItemRow.content.map { Self.value($0.value(item)) } + [.text(search.title), .text(search.text)])
            if stored.readAt != nil || stored.savedAt != nil {
                try session.execute(
                    "INSERT INTO item_state (user_id, ref, read_at, saved_at) VALUES (\(userID), ?, ?, ?)",
                    [.integer(stored.ref), .integer(stored.readAt.map(Self.millis)), .integer(stored.savedAt.map(Self.millis))])
            }
        case .label(let ref, let label):
            try session.execute(
                "INSERT INTO item_label (user_id, label, ref) VALUES (\(userID), ?, ?) ON CONFLICT DO NOTHING",
                [.text(label), .integer(ref)])
        case .action(let ref, let action, let doneAt):
            try session.execute(
                "INSERT INTO item_action (ref, action, done_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [.integer(ref), .text(action.rawValue), .integer(Self.millis(doneAt))])
        case .article(let ref, let article, let fetchedAt):
            try session.execute(
                "INSERT INTO item_article (ref, title, byline, content, text, search_text, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .integer(ref), .text(article.title), .text(article.byline), .text(article.content), .text(article.text),
                    .text(Self.searchable(SearchText.indexable(article.text))), .integer(Self.millis(fetchedAt)),
                ])
        case .tombstone(let provider, let id, let removedAt, let lastSeen):
            try session.execute(
                "INSERT INTO tombstone (provider, item_id, removed_at, last_seen) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(provider), .text(id), .integer(Self.millis(removedAt)), .integer(lastSeen.map(Self.millis))])
        case .providerState(let state):
            try Self.saveProviderState(state, in: session)
        case .validators(let provider, let url, let validators, let storedAt):
            try Self.saveValidators(validators, for: url, provider: provider, now: storedAt, in: session)
        case .notificationMark(let rule, let ref, let createdAt):
            try session.execute(
                "INSERT INTO notify_mark (user_id, rule, last_ref, created_at) VALUES (\(userID), ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(rule), .integer(ref), .integer(Self.millis(createdAt))])
        case .siteIcon(let icon):
            try session.execute(
                "INSERT INTO site_icon (site, content_type, data, fetched_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(icon.site), .text(icon.contentType), .bytes(icon.hasImage ? icon.data : nil), .integer(Self.millis(icon.fetchedAt))])
        case .secret(let purpose, let value, let createdAt):
            try session.execute(
                """
                INSERT INTO installation_secret (purpose, value, created_at) VALUES (?, ?, ?)
                ON CONFLICT (purpose) DO UPDATE SET value = excluded.value, created_at = excluded.created_at
                """, [.text(purpose), .text(value), .integer(Self.millis(createdAt))])
        case .checkin(let provider, let record):
            try session.execute(
                "INSERT INTO checkin (provider, day, streak, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(provider), .text(record.day), .integer(record.streak.map(Int64.init)), .integer(Self.millis(record.at))])
        case .refFloor(let value):
            floor = max(floor, value)
        }
    }
}
