import Foundation
internal import GRDB

extension Store {
    /// Reads one page of the merged timeline, newest first.
    public func timeline(_ query: TimelineQuery) throws -> TimelinePage {
        let rows = try read { db in
            let (sql, arguments) = try Self.page(of: query, selecting: ItemRow.selection, joining: ItemRow.join, oneMore: true, in: db)
            return try ItemRow.items(db, sql: sql, arguments: arguments)
        }
        let items = Array(rows.prefix(query.limit))
        let more = rows.count > query.limit
        return TimelinePage(items: items, nextCursor: more && !query.byNumber ? items.last.map(TimelineCursor.init(after:)) : nil)
    }

    /// The numbers of the items `query` selects, in its order, up to its limit (its page
    /// and cursor apply): a reader app's id lists without reading whole rows.
    public func refs(_ query: TimelineQuery) throws -> [Int64] {
        try read { db in
            let (sql, arguments) = try Self.page(of: query, selecting: "i.ref", oneMore: false, in: db)
            return try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
        }
    }

    /// One page of `query` as positions (number, publication, provider, id), read from the
    /// order's covering index without the rows.
    public func positions(_ query: TimelineQuery) throws -> TimelinePositions {
        let rows = try read { db in
            let (sql, arguments) = try Self.page(of: query, selecting: "i.ref, i.published, i.provider, i.item_id", oneMore: true, in: db)
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(arguments))
            return try ColumnReader.rows(of: statement, in: db) { row in
                TimelinePosition(
                    ref: row.integer(0), cursor: TimelineCursor(published: row.integer(1), provider: row.text(2), id: row.text(3)))
            }
        }
        return TimelinePositions(rows: rows, query: query)
    }

    /// The SQL and arguments of one page of `query`: `columns` of `item i` and `join`,
    /// with its conditions, order, limit (one row more when `oneMore`, which tells whether
    /// more follow) and page offset.
    ///
    /// A query for what was stored since a moment (a reader app's `ot`, "since my last
    /// sync") walks the items stored since then, when they are few, and sorts them: walking
    /// the order's index instead tests every row of a large file for the few that match
    /// (1M items: ~1 s for 100 new ones, against milliseconds).
    static func page(
        of query: TimelineQuery, selecting columns: String, joining join: String = "", oneMore: Bool, in db: Database
    )
        throws -> PageSQL
    {
        var (conditions, arguments) = Self.conditions(of: query)
        let recent = try fewStoredSince(query, in: db)
        var sql = "SELECT \(columns) FROM item i" + (recent ? " INDEXED BY item_by_first_seen" : "") + (join.isEmpty ? "" : " " + join)
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += Self.ordering(of: query)
        // "Everything" (Int.max) must not overflow.
        let limit = min(max(query.limit, 0), Int(Int32.max))
        arguments.append(oneMore ? limit + 1 : limit)
        if query.cursor == nil, query.page > 0 {
            sql += " OFFSET ?"
            let offset = query.page.multipliedReportingOverflow(by: limit)
            arguments.append(offset.overflow ? Int.max : offset.partialValue)
        }
        return (sql, arguments)
    }

    /// How many items stored since a query's `storedSince` are few enough to read them all
    /// and sort them.
    static let recentWalkLimit = 20_000

    /// Whether `query` asks for items stored since a moment after which at most
    /// ``recentWalkLimit`` were stored (counted on `item_by_first_seen`, stopping past it).
    static func fewStoredSince(_ query: TimelineQuery, in db: Database) throws -> Bool {
        guard let since = query.storedSince, !query.byNumber else { return false }
        let count = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM (SELECT 1 FROM item WHERE first_seen >= ? LIMIT ?)",
            arguments: [Self.millis(since), Self.recentWalkLimit + 1])
        return (count ?? 0) <= Self.recentWalkLimit
    }

    /// A statement's SQL with the values of its parameters.
    typealias PageSQL = (sql: String, arguments: [DatabaseValueConvertible?])

    /// `ORDER BY … LIMIT ?` for `query`: by publication (newest or oldest first), or by
    /// item number.
    static func ordering(of query: TimelineQuery) -> String {
        switch (query.byNumber, query.oldestFirst) {
        case (true, true): " ORDER BY i.ref LIMIT ?"
        case (true, false): " ORDER BY i.ref DESC LIMIT ?"
        case (false, true): " ORDER BY i.published, i.provider DESC, i.item_id DESC LIMIT ?"
        case (false, false): " ORDER BY i.published DESC, i.provider, i.item_id LIMIT ?"
        }
    }

    /// How many items `query` selects (its limit, page and cursor aside), counting no
    /// further than `cap`: a tab's unread badge shows "999+" instead of counting a million.
    public func count(_ query: TimelineQuery, cap: Int = 1_000) throws -> Int {
        var query = query
        query.cursor = nil
        let (conditions, arguments) = Self.conditions(of: query)
        var inner = "SELECT 1 FROM item i"
        if !conditions.isEmpty { inner += " WHERE " + conditions.joined(separator: " AND ") }
        let sql = "SELECT count(*) FROM (\(inner) LIMIT ?)"
        return try read { db in
            try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments + [cap])) ?? 0
        }
    }

    /// The replies stored for `topic` (a V2EX topic's replies, a Gitee issue's comments),
    /// oldest first.
    public func thread(of topic: StoredItem, limit: Int = 500) throws -> [StoredItem] {
        try read { db in
            try ItemRow.items(
                db,
                sql: """
                    SELECT \(ItemRow.selection) FROM \(ItemRow.from)
                    WHERE i.ref IN (
                        SELECT ref FROM item WHERE provider = ? AND kind = 'reply' AND json_extract(extra, '$.topic') = ?
                        UNION ALL
                        SELECT ref FROM item WHERE provider = ? AND item_id >= ? AND item_id < ? AND kind = 'reply')
                    ORDER BY i.published, i.item_id LIMIT ?
                    """,
                // Two indexed look-ups (item_reply_topic, and the (provider, item_id) key for
                // `<issue>/note/…` ids); one OR of both scanned every reply of the provider.
                arguments: [
                    topic.item.provider, topic.item.id, topic.item.provider, topic.item.id + "/note/", topic.item.id + "/note0", limit,
                ])
        }
    }

    /// The WHERE conditions (and their arguments) of `query`, positions aside from the cursor.
    static func conditions(of query: TimelineQuery) -> ([String], [DatabaseValueConvertible?]) {
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        func list(_ column: String, _ values: [String]) {
            conditions.append("\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
            arguments += values as [DatabaseValueConvertible?]
        }
        // Over several providers (a reader app's reading list names every subscription) or
        // in item-number order, walking the order's own index is the plan: `+` keeps SQLite
        // from choosing the provider index and sorting every row of the providers (1.7 s
        // for 1,000 reader ids and 4.8 s for a Fever page at 1M items, against milliseconds).
        // One provider keeps its index, which is in publication order already.
        if !query.providers.isEmpty {
            list(query.byNumber || query.providers.count > 1 ? "+i.provider" : "i.provider", query.providers)
        }
        if !query.sections.isEmpty { list("i.section", query.sections) }
        if !query.kinds.isEmpty { list("i.kind", query.kinds.map(\.rawValue)) }
        if let since = query.since {
            conditions.append("i.published >= ?")
            arguments.append(Self.millis(since))
        }
        if !query.labels.isEmpty {
            conditions.append(
                "i.ref IN (SELECT ref FROM item_label WHERE label IN (\(Array(repeating: "?", count: query.labels.count).joined(separator: ", "))))"
            )
            arguments += query.labels as [DatabaseValueConvertible?]
        }
        if let since = query.storedSince {
            conditions.append("i.first_seen >= ?")
            arguments.append(Self.millis(since))
        }
        if let before = query.storedBefore {
            conditions.append("i.first_seen < ?")
            arguments.append(Self.millis(before))
        }
        if let after = query.storedAfter {
            conditions.append("i.ref > ?")
            arguments.append(after)
        }
        if let through = query.storedThrough {
            conditions.append("i.ref <= ?")
            arguments.append(through)
        }
        if let before = query.before {
            conditions.append("i.published <= ?")
            arguments.append(Self.millis(before))
        }
        if query.unreadOnly { conditions.append("i.read_at IS NULL") }
        if query.readOnly { conditions.append("i.read_at IS NOT NULL") }
        if query.savedOnly { conditions.append("i.saved_at IS NOT NULL") }
        if query.unsavedOnly { conditions.append("i.saved_at IS NULL") }
        for filter in FilterSQL.conditions(of: query) {
            conditions.append(filter.sql)
            arguments += filter.arguments as [DatabaseValueConvertible?]
        }
        if query.byNumber {
            // Positions are item numbers (storedAfter, storedThrough), not a cursor.
        } else if let cursor = query.cursor, query.oldestFirst {
            conditions.append("(i.published > ? OR (i.published = ? AND (i.provider < ? OR (i.provider = ? AND i.item_id < ?))))")
            arguments += [cursor.published, cursor.published, cursor.provider, cursor.provider, cursor.id]
        } else if let cursor = query.cursor {
            conditions.append("(i.published < ? OR (i.published = ? AND (i.provider > ? OR (i.provider = ? AND i.item_id > ?))))")
            arguments += [cursor.published, cursor.published, cursor.provider, cursor.provider, cursor.id]
        }
        if query.dedupe {
            // Keep the first-stored copy of a page reached through several providers.
            var duplicate = "SELECT 1 FROM item o WHERE o.canonical_url = i.canonical_url AND o.provider <> i.provider AND o.ref < i.ref"
            if !query.providers.isEmpty {
                duplicate += " AND o.provider IN (\(Array(repeating: "?", count: query.providers.count).joined(separator: ", ")))"
                arguments += query.providers as [DatabaseValueConvertible?]
            }
            conditions.append("NOT EXISTS (\(duplicate))")
        }
        return (conditions, arguments)
    }

    /// The item with number `ref`.
    public func item(ref: Int64) throws -> StoredItem? {
        try read { db in
            try ItemRow.items(db, sql: "SELECT \(ItemRow.selection) FROM \(ItemRow.from) WHERE i.ref = ?", arguments: [ref], cached: true)
                .first
        }
    }

    /// The stored items among `refs`, in the order of `refs`, in one read (refs not stored
    /// are left out).
    public func items(refs: [Int64]) throws -> [StoredItem] {
        guard !refs.isEmpty else { return [] }
        var found: [Int64: StoredItem] = [:]
        try read { db in
            // SQLite binds at most 32,766 values per statement: read in chunks well below.
            for chunk in stride(from: 0, to: refs.count, by: 500).map({ refs[$0..<min($0 + 500, refs.count)] }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try ItemRow.items(
                    db, sql: "SELECT \(ItemRow.selection) FROM \(ItemRow.from) WHERE i.ref IN (\(marks))", arguments: Array(chunk))
                for stored in rows { found[stored.ref] = stored }
            }
        }
        return refs.compactMap { found[$0] }
    }

    /// The item with upstream id `id` from provider instance `provider`.
    public func item(provider: String, id: String) throws -> StoredItem? {
        try read { db in
            try ItemRow.items(
                db, sql: "SELECT \(ItemRow.selection) FROM \(ItemRow.from) WHERE i.provider = ? AND i.item_id = ?",
                arguments: [provider, id],
                cached: true
            ).first
        }
    }

    /// How many of the newest full-text matches are ranked.
    package static let searchWindow = 1_000

    /// Full-text search over title, summary, author and tags, best match first.
    ///
    /// Every word must match. Words go through the index (CJK as bigram phrases, see
    /// ``SearchText``); a lone CJK character, which the bigram index cannot find, is matched
    /// with LIKE instead. Ranking (``FullTextRank``, bm25 without IDF) covers the newest
    /// ``searchWindow`` matches.
    ///
    /// `filters` and `hiding` narrow the results as in ``timeline(_:)``; ages count from `now`.
    public func search(
        _ text: String, limit: Int = 40, providers: [String] = [], filters: [FilterExpression] = [], hiding: HidingRules? = nil,
        now: Date = Date()
    ) throws -> [StoredItem] {
        try SearchError.check(text)
        let extra = (hiding.map { FilterSQL.hiding($0, now: now) } ?? []) + filters.map { FilterSQL.compile($0, now: now) }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var phrases: [String] = []
        var loose: [String] = []
        for word in words {
            if let phrase = SearchText.matchExpression(word) {
                phrases.append(phrase)
            } else if word.unicodeScalars.count == 1 {
                loose.append(word)
            }
        }
        guard !phrases.isEmpty || !loose.isEmpty else { return [] }
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        var sql = "SELECT \(ItemRow.selection) FROM \(ItemRow.from)"
        if !phrases.isEmpty {
            // Rank the most recent matches only: FTS5 walks the index newest-first and stops,
            // so a word found in half the database costs the same as a rare one.
            // Items' own text first; an item found only in the full text of its page after.
            sql += """
                 JOIN (SELECT rowid, min(rank) AS rank FROM (
                         SELECT * FROM (SELECT rowid, \(FullTextRank.name)(item_fts) AS rank FROM item_fts WHERE item_fts MATCH ?
                                        ORDER BY rowid DESC LIMIT \(Self.searchWindow))
                         UNION ALL
                         SELECT * FROM (SELECT rowid, 1000000 + bm25(article_fts) AS rank FROM article_fts WHERE article_fts MATCH ?
                                        ORDER BY rowid DESC LIMIT \(Self.searchWindow)))
                       GROUP BY rowid) f
                 ON f.rowid = i.ref
                """
            arguments.append(phrases.joined(separator: " AND "))
            arguments.append(phrases.joined(separator: " AND "))
        }
        for word in loose {
            conditions.append("(i.title LIKE ? OR i.summary LIKE ? OR i.author LIKE ? OR i.tags LIKE ?)")
            arguments += Array(repeating: "%\(word)%", count: 4)
        }
        if !providers.isEmpty {
            conditions.append("i.provider IN (\(Array(repeating: "?", count: providers.count).joined(separator: ", ")))")
            arguments += providers as [DatabaseValueConvertible?]
        }
        for filter in extra {
            conditions.append(filter.sql)
            arguments += filter.arguments as [DatabaseValueConvertible?]
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += phrases.isEmpty ? " ORDER BY i.published DESC" : " ORDER BY f.rank, i.published DESC"
        sql += " LIMIT ?"
        arguments.append(limit)
        let finalSQL = sql
        return try read { db in
            try ItemRow.items(db, sql: finalSQL, arguments: arguments)
        }
    }
}

extension Store {
    /// Per provider, how many stored items `filter` matches, for `aggr filter test`.
    public func count(matching filter: FilterExpression, now: Date = Date()) throws -> [FilterMatchCount] {
        try count(matching: FilterSQL.compile(filter, now: now))
    }

    func count(matching filter: FilterSQL) throws -> [FilterMatchCount] {
        try read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT i.provider, sum(CASE WHEN \(filter.sql) THEN 1 ELSE 0 END), count(*) FROM item i GROUP BY i.provider ORDER BY i.provider",
                arguments: StatementArguments(filter.arguments)
            ).map { FilterMatchCount(provider: $0[0], matching: $0[1] ?? 0, total: $0[2]) }
        }
    }
}
