import Aggregator
import Foundation

/// Read and saved state, labels and upstream actions: the first three are the store's user's.
extension PostgresStore {
    public func markRead(refs: [Int64], read: Bool, now: Date) throws -> Int {
        try setState("read_at", refs: refs, to: read ? Self.millis(now) : nil, keepFirst: false)
    }

    public func markSaved(refs: [Int64], saved: Bool, now: Date) throws -> Int {
        // Saving again keeps the first time it was saved.
        try setState("saved_at", refs: refs, to: saved ? Self.millis(now) : nil, keepFirst: saved)
    }

    /// Sets the user's `column` on the items numbered `refs` that exist; how many exist.
    private func setState(_ column: String, refs: [Int64], to value: Int64?, keepFirst: Bool) throws -> Int {
        guard !refs.isEmpty else { return 0 }
        return try write { session in
            let found = try session.execute(
                """
                INSERT INTO item_state (user_id, ref, \(column)) SELECT \(userID), ref, ? FROM item WHERE ref = ANY(?)
                ON CONFLICT (user_id, ref) DO UPDATE SET \(column) = \(keepFirst ? "coalesce(item_state.\(column), excluded.\(column))" : "excluded.\(column)")
                """, [.integer(value), .integers(refs)])
            if found > 0 { try Self.noteTimelineChange(in: session) }
            return found
        }
    }

    public func markAllRead(providers: [String], now: Date) throws -> Int {
        var query = TimelineQuery()
        query.providers = providers
        return try markRead(matching: query, now: now)
    }

    public func markRead(matching query: TimelineQuery, now: Date) throws -> Int {
        var query = query
        query.cursor = nil
        query.unreadOnly = true
        var inner = SQLFragment("SELECT i.ref FROM \(stateJoin)")
        append(conditions(of: query), to: &inner)
        let statement = SQLFragment(
            """
            INSERT INTO item_state (user_id, ref, read_at) SELECT \(userID), ref, ? FROM (\(inner.sql)) chosen
            ON CONFLICT (user_id, ref) DO UPDATE SET read_at = excluded.read_at
            """, [.integer(Self.millis(now))] + inner.values)
        return try write { session in
            let marked = try session.execute(statement)
            if marked > 0 { try Self.noteTimelineChange(in: session) }
            return marked
        }
    }

    public func setLabel(_ label: String, on refs: [Int64], _ labelled: Bool) throws -> Int {
        guard !refs.isEmpty else { return 0 }
        return try write { session in
            let found = Int(
                try session.value(Int64.self, "SELECT count(*) FROM item WHERE ref = ANY(?)", [.integers(Array(Set(refs)))]) ?? 0)
            let changed =
                labelled
                ? try session.execute(
                    "INSERT INTO item_label (user_id, label, ref) SELECT \(userID), ?, ref FROM item WHERE ref = ANY(?) ON CONFLICT DO NOTHING",
                    [.text(label), .integers(refs)])
                : try session.execute(
                    "DELETE FROM item_label WHERE user_id = \(userID) AND label = ? AND ref = ANY(?)", [.text(label), .integers(refs)])
            if changed > 0 { try Self.noteTimelineChange(in: session) }
            return found
        }
    }

    public func labels(of refs: [Int64]) throws -> [Int64: [String]] {
        guard !refs.isEmpty else { return [:] }
        return try read { session in
            var labels: [Int64: [String]] = [:]
            for row in try session.rows(
                "SELECT ref, label FROM item_label WHERE user_id = \(userID) AND ref = ANY(?) ORDER BY label", [.integers(refs)])
            {
                labels[try row.get(0, as: Int64.self) ?? 0, default: []].append(try row.get(1, as: String.self) ?? "")
            }
            return labels
        }
    }

    public func labelUse() throws -> [(label: String, items: Int)] {
        try read { session in
            try session.rows("SELECT label, count(*) FROM item_label WHERE user_id = \(userID) GROUP BY label ORDER BY label").map {
                (try $0.get(0, as: String.self) ?? "", Int(try $0.get(1, as: Int64.self) ?? 0))
            }
        }
    }

    public func renameLabel(_ label: String, to newName: String) throws -> Int {
        guard label != newName else { return try labelUse().first { $0.label == label }?.items ?? 0 }
        return try write { session in
            try session.execute(
                """
                INSERT INTO item_label (user_id, label, ref) SELECT user_id, ?, ref FROM item_label
                WHERE user_id = \(userID) AND label = ? ON CONFLICT DO NOTHING
                """, [.text(newName), .text(label)])
            let renamed = try session.execute("DELETE FROM item_label WHERE user_id = \(userID) AND label = ?", [.text(label)])
            if renamed > 0 { try Self.noteTimelineChange(in: session) }
            return renamed
        }
    }

    public func removeLabel(_ label: String) throws -> Int {
        try write { session in
            let removed = try session.execute("DELETE FROM item_label WHERE user_id = \(userID) AND label = ?", [.text(label)])
            if removed > 0 { try Self.noteTimelineChange(in: session) }
            return removed
        }
    }

    public func actionStates(of refs: [Int64]) throws -> [Int64: Set<ItemAction>] {
        guard !refs.isEmpty else { return [:] }
        return try read { session in
            var states: [Int64: Set<ItemAction>] = [:]
            for row in try session.rows("SELECT ref, action FROM item_action WHERE ref = ANY(?)", [.integers(refs)]) {
                if let action = ItemAction(rawValue: try row.get(1, as: String.self) ?? "") {
                    states[try row.get(0, as: Int64.self) ?? 0, default: []].insert(action)
                }
            }
            return states
        }
    }

    public func setActionState(_ action: ItemAction, on ref: Int64, done: Bool, metric: String?, delta: Int, now: Date) throws -> Bool {
        try write { session in
            guard try session.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM item WHERE ref = ?)", [.integer(ref)]) == true else {
                return false
            }
            if done {
                try session.execute(
                    """
                    INSERT INTO item_action (ref, action, done_at) VALUES (?, ?, ?)
                    ON CONFLICT (ref, action) DO UPDATE SET done_at = excluded.done_at
                    """, [.integer(ref), .text(action.rawValue), .integer(Self.millis(now))])
            } else {
                try session.execute("DELETE FROM item_action WHERE ref = ? AND action = ?", [.integer(ref), .text(action.rawValue)])
            }
            if let metric, Store.actionMetrics.contains(metric), delta != 0 {
                try session.execute(
                    "UPDATE item SET \(metric) = greatest(0, coalesce(\(metric), 0) + ?) WHERE ref = ?",
                    [.integer(Int64(delta)), .integer(ref)])
            }
            try Self.noteTimelineChange(in: session)
            return true
        }
    }

    public func lastCheckin(provider: String) throws -> CheckinRecord? {
        try read { session in
            try session.rows("SELECT day, streak, at FROM checkin WHERE provider = ?", [.text(provider)]).first.map {
                CheckinRecord(
                    day: try $0.get(0, as: String.self) ?? "", streak: try $0.get(1, as: Int64.self).map { Int($0) },
                    at: Self.date(try $0.get(2, as: Int64.self) ?? 0))
            }
        }
    }

    public func saveCheckin(_ record: CheckinRecord, provider: String) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO checkin (provider, day, streak, at) VALUES (?, ?, ?, ?)
                ON CONFLICT (provider) DO UPDATE SET day = excluded.day, streak = excluded.streak, at = excluded.at
                """, [.text(provider), .text(record.day), .integer(record.streak.map(Int64.init)), .integer(Self.millis(record.at))])
        }
    }

    public func article(of ref: Int64) throws -> Article? {
        try read { session in
            try session.rows("SELECT title, byline, content, text FROM item_article WHERE ref = ?", [.integer(ref)]).first.map {
                Article(
                    title: try $0.get(0, as: String.self) ?? "", byline: try $0.get(1, as: String.self),
                    content: try $0.get(2, as: String.self) ?? "", text: try $0.get(3, as: String.self) ?? "")
            }
        }
    }

    public func saveArticle(_ article: Article, of ref: Int64, now: Date) throws -> Bool {
        try write { session in
            guard try session.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM item WHERE ref = ?)", [.integer(ref)]) == true else {
                return false
            }
            try session.execute(
                """
                INSERT INTO item_article (ref, title, byline, content, text, search_text, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (ref) DO UPDATE SET title = excluded.title, byline = excluded.byline, content = excluded.content,
                    text = excluded.text, search_text = excluded.search_text, fetched_at = excluded.fetched_at
                """,
                [
                    .integer(ref), .text(article.title), .text(article.byline), .text(article.content), .text(article.text),
                    .text(Self.searchable(SearchText.indexable(article.text))), .integer(Self.millis(now)),
                ])
            try Self.noteTimelineChange(in: session)
            return true
        }
    }
}
