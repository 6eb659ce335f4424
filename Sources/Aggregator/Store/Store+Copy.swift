import Foundation
internal import GRDB

extension Store {
    public func export(_ batch: ([StoredRecord]) throws -> Void) throws {
        try read { db in
            var batches = RecordBatches()
            func add(_ record: StoredRecord) throws { try batches.add(record, to: batch) }
            for row in try Row.fetchAll(db, sql: "SELECT provider, key, title FROM section ORDER BY provider, key") {
                try add(.section(provider: row[0], key: row[1], title: row[2]))
            }
            let items = try db.makeStatement(sql: "SELECT \(ItemRow.selection) FROM \(ItemRow.from) ORDER BY i.ref")
            try ColumnReader.each(of: items, in: db) { try add(.item(ItemRow.decode($0))) }
            for row in try Row.fetchAll(db, sql: "SELECT ref, label FROM item_label ORDER BY ref, label") {
                try add(.label(ref: row[0], label: row[1]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT ref, action, done_at FROM item_action ORDER BY ref, action") {
                if let action = ItemAction(rawValue: row[1]) { try add(.action(ref: row[0], action: action, doneAt: Self.date(row[2]))) }
            }
            let articles = try Row.fetchCursor(
                db, sql: "SELECT ref, title, byline, content, text, fetched_at FROM item_article ORDER BY ref")
            while let row = try articles.next() {
                try add(
                    .article(
                        ref: row[0], article: Article(title: row[1], byline: row[2], content: row[3], text: row[4]),
                        fetchedAt: Self.date(row[5])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT provider, item_id, removed_at, last_seen FROM tombstone") {
                try add(
                    .tombstone(provider: row[0], id: row[1], removedAt: Self.date(row[2]), lastSeen: (row[3] as Int64?).map(Self.date)))
            }
            for state in try Self.providerStates(in: db).values.sorted(by: { $0.provider < $1.provider }) { try add(.providerState(state)) }
            for row in try Row.fetchAll(db, sql: "SELECT provider, url, etag, last_modified, body_hash, stored_at FROM http_validator") {
                try add(
                    .validators(
                        provider: row[0], url: row[1], validators: HTTPValidators(etag: row[2], lastModified: row[3], bodyHash: row[4]),
                        storedAt: Self.date(row[5])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT rule, last_ref, created_at FROM notify_mark") {
                try add(.notificationMark(rule: row[0], ref: row[1], createdAt: Self.date(row[2])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT site, content_type, data, fetched_at FROM site_icon") {
                try add(.siteIcon(Self.siteIcon(from: row)))
            }
            for row in try Row.fetchAll(db, sql: "SELECT purpose, value, created_at FROM installation_secret") {
                try add(.secret(purpose: row[0], value: row[1], createdAt: Self.date(row[2])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT provider, day, streak, at FROM checkin") {
                try add(.checkin(provider: row[0], record: CheckinRecord(day: row[1], streak: row[2], at: Self.date(row[3]))))
            }
            try add(
                .refFloor(try Int64.fetchOne(db, sql: "SELECT max(value, (SELECT coalesce(max(ref), 0) FROM item)) FROM ref_floor") ?? 0))
            try batches.flush(to: batch)
        }
    }

    public func importRecords(_ nextBatch: () throws -> [StoredRecord]?) throws -> StorageCopyCount {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item) OR EXISTS (SELECT 1 FROM section)") == false else {
                throw StoreError(path: path, message: localized("already holds items or sections; copy into a new, empty database"))
            }
            var count = StorageCopyCount()
            var floor: Int64 = 0
            let fullText = try FullTextIndex.Inserter(in: db)
            while let records = try nextBatch() {
                count.add(records)
                for record in records {
                    switch record {
                    case .section(let provider, let key, let title):
                        try db.execute(
                            sql: "INSERT INTO section (provider, key, title) VALUES (?, ?, ?)", arguments: [provider, key, title])
                    case .item(let stored):
                        let record = ItemRecord(stored.item)
                        var values: [DatabaseValueConvertible?] = [
                            stored.ref, stored.item.provider, stored.item.section, stored.item.id, record.canonicalURL,
                            Self.millis(stored.item.published), Self.millis(stored.firstSeen), stored.readAt.map(Self.millis),
                            stored.savedAt.map(Self.millis),
                        ]
                        values += ItemRow.content.map { $0.value(record).databaseValue }
                        try db.cachedStatement(
                            sql: """
                                INSERT INTO item (ref, provider, section, item_id, canonical_url, published, first_seen, read_at, saved_at, \
                                \(ItemRow.content.map(\.name).joined(separator: ", ")))
                                VALUES (\(Array(repeating: "?", count: 9 + ItemRow.content.count).joined(separator: ", ")))
                                """
                        ).execute(arguments: StatementArguments(values))
                        try fullText.insert(FullTextIndex.Entry(stored.item).indexed, ref: stored.ref)
                    case .label(let ref, let label):
                        try db.execute(sql: "INSERT OR IGNORE INTO item_label (label, ref) VALUES (?, ?)", arguments: [label, ref])
                    case .action(let ref, let action, let doneAt):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO item_action (ref, action, done_at) VALUES (?, ?, ?)",
                            arguments: [ref, action.rawValue, Self.millis(doneAt)])
                    case .article(let ref, let article, let fetchedAt):
                        try db.execute(
                            sql:
                                "INSERT OR REPLACE INTO item_article (ref, title, byline, content, text, fetched_at) VALUES (?, ?, ?, ?, ?, ?)",
                            arguments: [ref, article.title, article.byline, article.content, article.text, Self.millis(fetchedAt)])
                        try db.execute(
                            sql: "INSERT INTO article_fts (rowid, text) VALUES (?, ?)",
                            arguments: [ref, SearchText.indexable(article.text)])
                    case .tombstone(let provider, let id, let removedAt, let lastSeen):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO tombstone (provider, item_id, removed_at, last_seen) VALUES (?, ?, ?, ?)",
                            arguments: [provider, id, Self.millis(removedAt), lastSeen.map(Self.millis)])
                    case .providerState(let state):
                        try Self.saveProviderState(state, in: db)
                    case .validators(let provider, let url, let validators, let storedAt):
                        try Self.saveValidators(validators, for: url, provider: provider, now: storedAt, in: db)
                    case .notificationMark(let rule, let ref, let createdAt):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO notify_mark (rule, last_ref, created_at) VALUES (?, ?, ?)",
                            arguments: [rule, ref, Self.millis(createdAt)])
                    case .siteIcon(let icon):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO site_icon (site, content_type, data, fetched_at) VALUES (?, ?, ?, ?)",
                            arguments: [icon.site, icon.contentType, icon.hasImage ? Data(icon.data) : nil, Self.millis(icon.fetchedAt)])
                    case .secret(let purpose, let value, let createdAt):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO installation_secret (purpose, value, created_at) VALUES (?, ?, ?)",
                            arguments: [purpose, value, Self.millis(createdAt)])
                    case .checkin(let provider, let record):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO checkin (provider, day, streak, at) VALUES (?, ?, ?, ?)",
                            arguments: [provider, record.day, record.streak, Self.millis(record.at)])
                    case .refFloor(let value):
                        floor = max(floor, value)
                    }
                }
            }
            try db.execute(sql: "UPDATE ref_floor SET value = max(value, ?) WHERE id = 1", arguments: [floor])
            if count.items > 0 { try Self.noteTimelineChange(in: db) }
            return count
        }
    }
}
