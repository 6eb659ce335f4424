import Aggregator
import Foundation
import PostgresNIO

extension PostgresStore {
    /// The columns read for a ``StoredItem``, in the order ``decode(_:)`` expects; read and
    /// saved state are the store's user's.
    static let selection = """
        i.ref, i.provider, i.section, i.item_id, i.kind, i.title, i.url, i.author, i.author_url, i.summary, i.content, \
        i.published, i.updated, i.tags, i.replies, i.comments, i.stars, i.forks, i.likes, i.views, i.image, i.extra, \
        i.first_seen, st.read_at, s.title, st.saved_at
        """

    /// `item i` with the user's state and the section title ``selection`` reads.
    var from: String {
        "item i LEFT JOIN item_state st ON st.ref = i.ref AND st.user_id = \(userID) "
            + "LEFT JOIN section s ON s.provider = i.provider AND s.key = i.section"
    }

    /// `item i` with the user's state, for conditions on read and saved without the title.
    var stateJoin: String { "item i LEFT JOIN item_state st ON st.ref = i.ref AND st.user_id = \(userID)" }

    static func decode(_ row: PostgresRandomAccessRow) throws -> StoredItem {
        func text(_ index: Int) throws -> String { try row.get(index, as: String.self) ?? "" }
        func number(_ index: Int) throws -> Int? { try row.get(index, as: Int64.self).map { Int($0) } }
        let authorName = try row.get(7, as: String.self)
        let item = Item(
            provider: try text(1), section: try text(2), id: try text(3),
            kind: ItemKind(rawValue: try text(4)) ?? .post,
            title: try text(5), url: try text(6),
            author: try authorName.map { Author(name: $0, url: try row.get(8, as: String.self)) },
            summary: try text(9), content: try row.get(10, as: String.self),
            published: date(try row.get(11, as: Int64.self) ?? 0),
            updated: try row.get(12, as: Int64.self).map(date),
            tags: ItemRow.decodeTags(try text(13)),
            metrics: Metrics(
                replies: try number(14), comments: try number(15), stars: try number(16), forks: try number(17), likes: try number(18),
                views: try number(19)),
            image: try row.get(20, as: String.self),
            extra: ItemRow.decodeExtra(try text(21))
        )
        return StoredItem(
            ref: try row.get(0, as: Int64.self) ?? 0, item: item, firstSeen: date(try row.get(22, as: Int64.self) ?? 0),
            readAt: try row.get(23, as: Int64.self).map(date), sectionTitle: try row.get(24, as: String.self),
            savedAt: try row.get(25, as: Int64.self).map(date))
    }

    public func timeline(_ query: TimelineQuery) throws -> TimelinePage {
        let statement = page(of: query, selecting: Self.selection, from: from, oneMore: true)
        let rows = try read { session in try session.rows(statement).map(Self.decode) }
        let items = Array(rows.prefix(query.limit))
        let more = rows.count > query.limit
        return TimelinePage(items: items, nextCursor: more && !query.byNumber ? items.last.map(TimelineCursor.init(after:)) : nil)
    }

    public func refs(_ query: TimelineQuery) throws -> [Int64] {
        let statement = page(of: query, selecting: "i.ref", from: stateJoin, oneMore: false)
        return try read { session in try session.rows(statement).compactMap { try $0.get(0, as: Int64.self) } }
    }

    public func positions(_ query: TimelineQuery) throws -> TimelinePositions {
        let statement = page(of: query, selecting: "i.ref, i.published, i.provider, i.item_id", from: stateJoin, oneMore: true)
        let rows = try read { session in
            try session.rows(statement).map { row in
                TimelinePosition(
                    ref: try row.get(0, as: Int64.self) ?? 0,
                    cursor: TimelineCursor(
                        published: try row.get(1, as: Int64.self) ?? 0, provider: try row.get(2, as: String.self) ?? "",
                        id: try row.get(3, as: String.self) ?? ""))
            }
        }
        return TimelinePositions(rows: rows, query: query)
    }

    public func count(_ query: TimelineQuery, cap: Int) throws -> Int {
        var query = query
        query.cursor = nil
        var inner = SQLFragment("SELECT 1 FROM \(stateJoin)")
        append(conditions(of: query), to: &inner)
        let statement = SQLFragment("SELECT count(*) FROM (\(inner.sql) LIMIT ?) counted", inner.values + [.integer(Int64(cap))])
        return try read { session in Int(try session.rows(statement).first?.get(0, as: Int64.self) ?? 0) }
    }

    /// ` WHERE a AND b…` with the conditions' values, when there are any.
    func append(_ conditions: [SQLFragment], to statement: inout SQLFragment) {
        guard !conditions.isEmpty else { return }
        statement.sql += " WHERE " + conditions.map(\.sql).joined(separator: " AND ")
        statement.values += conditions.flatMap(\.values)
    }

    /// One page of `query`: `columns` of `from` with its conditions, order, limit (one row
    /// more when `oneMore`, which tells whether more follow) and page offset.
    private func page(of query: TimelineQuery, selecting columns: String, from: String, oneMore: Bool) -> SQLFragment {
        var statement = SQLFragment("SELECT \(columns) FROM \(from)")
        append(conditions(of: query), to: &statement)
        // "Everything" (Int.max) must not overflow.
        let limit = min(max(query.limit, 0), Int(Int32.max))
        statement.sql += Self.ordering(of: query)
        statement.values.append(.integer(Int64(limit) + (oneMore ? 1 : 0)))
        if query.cursor == nil, query.page > 0 {
            let offset = query.page.multipliedReportingOverflow(by: limit)
            statement.sql += " OFFSET ?"
            statement.values.append(.integer(offset.overflow ? Int64.max : Int64(offset.partialValue)))
        }
        return statement
    }

    /// `ORDER BY … LIMIT ?`: by publication (newest or oldest first), or by item number.
    static func ordering(of query: TimelineQuery) -> String {
        switch (query.byNumber, query.oldestFirst) {
        case (true, true): " ORDER BY i.ref LIMIT ?"
        case (true, false): " ORDER BY i.ref DESC LIMIT ?"
        case (false, true): " ORDER BY i.published, i.provider DESC, i.item_id DESC LIMIT ?"
        case (false, false): " ORDER BY i.published DESC, i.provider, i.item_id LIMIT ?"
        }
    }

    /// The conditions of `query` (positions aside from its cursor), as the SQLite store's.
    func conditions(of query: TimelineQuery) -> [SQLFragment] {
        var conditions: [SQLFragment] = []
        func list(_ column: String, _ values: [String]) {
            conditions.append(SQLFragment("\(column) IN (\(SQLFragment.marks(values.count)))", values.map { .text($0) }))
        }
        if !query.providers.isEmpty { list("i.provider", query.providers) }
        if !query.sections.isEmpty { list("i.section", query.sections) }
        if !query.kinds.isEmpty { list("i.kind", query.kinds.map(\.rawValue)) }
        if let since = query.since { conditions.append(SQLFragment("i.published >= ?", [.integer(Self.millis(since))])) }
        if !query.labels.isEmpty {
            conditions.append(
                SQLFragment(
                    "i.ref IN (SELECT ref FROM item_label WHERE user_id = \(userID) AND label IN (\(SQLFragment.marks(query.labels.count))))",
                    query.labels.map { .text($0) }))
        }
        if let since = query.storedSince { conditions.append(SQLFragment("i.first_seen >= ?", [.integer(Self.millis(since))])) }
        if let before = query.storedBefore { conditions.append(SQLFragment("i.first_seen < ?", [.integer(Self.millis(before))])) }
        if let after = query.storedAfter { conditions.append(SQLFragment("i.ref > ?", [.integer(after)])) }
        if let through = query.storedThrough { conditions.append(SQLFragment("i.ref <= ?", [.integer(through)])) }
        if let before = query.before { conditions.append(SQLFragment("i.published <= ?", [.integer(Self.millis(before))])) }
        if query.unreadOnly { conditions.append(SQLFragment("st.read_at IS NULL")) }
        if query.readOnly { conditions.append(SQLFragment("st.read_at IS NOT NULL")) }
        if query.savedOnly { conditions.append(SQLFragment("st.saved_at IS NOT NULL")) }
        if query.unsavedOnly { conditions.append(SQLFragment("st.saved_at IS NULL")) }
        conditions += (query.hiding.map { PostgresFilterSQL.hiding($0, now: query.now, user: userID) } ?? [])
        conditions += query.filters.map { PostgresFilterSQL.compile($0, now: query.now, user: userID) }
        if query.byNumber {
            // Positions are item numbers (storedAfter, storedThrough), not a cursor.
        } else if let cursor = query.cursor {
            let (later, after) = query.oldestFirst ? (">", "<") : ("<", ">")
            conditions.append(
                SQLFragment(
                    """
                    (i.published \(later) ? OR (i.published = ? AND (i.provider \(after) ? \
                    OR (i.provider = ? AND i.item_id \(after) ?))))
                    """,
                    [
                        .integer(cursor.published), .integer(cursor.published), .text(cursor.provider), .text(cursor.provider),
                        .text(cursor.id),
                    ]))
        }
        if query.dedupe {
            // Keep the first-stored copy of a page reached through several providers.
            var duplicate = SQLFragment(
                "SELECT 1 FROM item o WHERE o.canonical_url = i.canonical_url AND o.provider <> i.provider AND o.ref < i.ref")
            if !query.providers.isEmpty {
                duplicate.sql += " AND o.provider IN (\(SQLFragment.marks(query.providers.count)))"
                duplicate.values += query.providers.map { .text($0) }
            }
            conditions.append(SQLFragment("NOT EXISTS (\(duplicate.sql))", duplicate.values))
        }
        return conditions
    }

    public func thread(of topic: StoredItem, limit: Int) throws -> [StoredItem] {
        let statement = SQLFragment(
            """
            SELECT \(Self.selection) FROM \(from)
            WHERE i.ref IN (
                SELECT ref FROM item WHERE provider = ? AND kind = 'reply' AND (extra::jsonb ->> 'topic') = ?
                UNION ALL
                SELECT ref FROM item WHERE provider = ? AND item_id >= ? AND item_id < ? AND kind = 'reply')
            ORDER BY i.published, i.item_id LIMIT ?
            """,
            [
                .text(topic.item.provider), .text(topic.item.id), .text(topic.item.provider), .text(topic.item.id + "/note/"),
                .text(topic.item.id + "/note0"), .integer(Int64(limit)),
            ])
        return try read { session in try session.rows(statement).map(Self.decode) }
    }

    public func item(ref: Int64) throws -> StoredItem? {
        try read { session in
            try session.rows("SELECT \(Self.selection) FROM \(from) WHERE i.ref = ?", [.integer(ref)]).first.map(Self.decode)
        }
    }

    public func items(refs: [Int64]) throws -> [StoredItem] {
        guard !refs.isEmpty else { return [] }
        let rows = try read { session in
            try session.rows("SELECT \(Self.selection) FROM \(from) WHERE i.ref = ANY(?)", [.integers(refs)]).map(Self.decode)
        }
        var found: [Int64: StoredItem] = [:]
        for stored in rows { found[stored.ref] = stored }
        return refs.compactMap { found[$0] }
    }

    public func item(provider: String, id: String) throws -> StoredItem? {
        try read { session in
            try session.rows("SELECT \(Self.selection) FROM \(from) WHERE i.provider = ? AND i.item_id = ?", [.text(provider), .text(id)])
                .first.map(Self.decode)
        }
    }

    public func holdsItem(provider: String, id: String) throws -> Bool {
        try read { session in
            try session.value(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM item WHERE provider = ? AND item_id = ?)", [.text(provider), .text(id)])
                ?? false
        }
    }

    public func count(matching filter: FilterExpression, now: Date) throws -> [FilterMatchCount] {
        let compiled = PostgresFilterSQL.compile(filter, now: now, user: userID)
        let statement = SQLFragment(
            """
            SELECT i.provider, sum(CASE WHEN \(compiled.sql) THEN 1 ELSE 0 END)::bigint, count(*)
            FROM \(stateJoin) GROUP BY i.provider ORDER BY i.provider
            """, compiled.values)
        return try read { session in
            try session.rows(statement).map {
                FilterMatchCount(
                    provider: try $0.get(0, as: String.self) ?? "", matching: Int(try $0.get(1, as: Int64.self) ?? 0),
                    total: Int(try $0.get(2, as: Int64.self) ?? 0))
            }
        }
    }

    public func sections() throws -> [SectionSummary] {
        try read { session in
            var unread: [String: (Int, Int64)] = [:]
            for row in try session.rows(
                "SELECT i.provider, i.section, count(*), max(i.published) FROM \(stateJoin) WHERE st.read_at IS NULL GROUP BY i.provider, i.section"
            ) {
                let key = (try row.get(0, as: String.self) ?? "") + "\u{0}" + (try row.get(1, as: String.self) ?? "")
                unread[key] = (Int(try row.get(2, as: Int64.self) ?? 0), try row.get(3, as: Int64.self) ?? 0)
            }
            return try session.rows("SELECT provider, key, title FROM section ORDER BY provider, key").map {
                let provider = try $0.get(0, as: String.self) ?? ""
                let key = try $0.get(1, as: String.self) ?? ""
                let counts = unread[provider + "\u{0}" + key]
                return SectionSummary(
                    provider: provider, key: key, title: try $0.get(2, as: String.self) ?? "", unread: counts?.0 ?? 0,
                    newestUnread: counts.map { Self.date($0.1) })
            }
        }
    }

    public func sectionTitles() throws -> [SectionSummary] {
        try read { session in
            try session.rows("SELECT provider, key, title FROM section ORDER BY provider, key").map {
                SectionSummary(
                    provider: try $0.get(0, as: String.self) ?? "", key: try $0.get(1, as: String.self) ?? "",
                    title: try $0.get(2, as: String.self) ?? "")
            }
        }
    }

    public func itemCounts() throws -> [String: ProviderItemCount] {
        try read { session in
            var counts: [String: ProviderItemCount] = [:]
            for row in try session.rows("SELECT i.provider, count(*), count(*) - count(st.read_at) FROM \(stateJoin) GROUP BY i.provider") {
                counts[try row.get(0, as: String.self) ?? ""] = ProviderItemCount(
                    total: Int(try row.get(1, as: Int64.self) ?? 0), unread: Int(try row.get(2, as: Int64.self) ?? 0))
            }
            return counts
        }
    }

    public func latestRef() throws -> Int64 {
        try read { session in try session.value(Int64.self, "SELECT max(ref) FROM item") ?? 0 }
    }

    public func dataVersion() throws -> Int64 {
        try read { session in try session.value(Int64.self, "SELECT value FROM change_count WHERE id = 1") ?? 0 }
    }

    /// Moves ``dataVersion()`` on, inside the write that changed the timeline.
    static func noteTimelineChange(in session: PostgresSession) throws {
        try session.execute("UPDATE change_count SET value = value + 1 WHERE id = 1")
    }
}
