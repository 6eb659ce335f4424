import Aggregator
import Foundation

extension PostgresStore {
    /// Full-text search over title, summary, author and tags (and extracted articles), best
    /// match first, as the SQLite store's.
    ///
    /// Words match through the stored `search_vector` (`to_tsvector('simple', search_text)`)
    /// and its GIN index, CJK as the same two-character pieces the SQLite index holds
    /// (``SearchText``), each word as a phrase; a lone CJK character, which no piece holds,
    /// matches with `strpos` instead.
    /// The newest ``Store/searchWindow`` matches are ranked: a match in the title counts
    /// ten times one elsewhere, as in the SQLite store's ranking.
    public func search(
        _ text: String, limit: Int, providers: [String], filters: [FilterExpression], hiding: HidingRules?, now: Date
    ) throws -> [StoredItem] {
        try SearchError.check(text)
        var phrases: [String] = []
        var loose: [String] = []
        for word in text.split(whereSeparator: \.isWhitespace).map(String.init) {
            let scalars = word.unicodeScalars
            if scalars.count == 1, let only = scalars.first, SearchText.isUnsegmented(only) {
                loose.append(word)
                continue
            }
            let prepared = Self.searchable(SearchText.indexable(word)).split(separator: " ").joined(separator: " ")
            if prepared.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                phrases.append(prepared)
            }
        }
        guard !phrases.isEmpty || !loose.isEmpty else { return [] }
        var statement = SQLFragment("SELECT \(Self.selection) FROM \(from)")
        var conditions: [SQLFragment] = []
        if !phrases.isEmpty {
            let words = phrases.map { _ in "phraseto_tsquery('simple', ?)" }.joined(separator: " && ")
            let window = Store.searchWindow
            // The newest matches first, from the stored vectors; only they are ranked. Items'
            // own text first; an item found only in its page's full text after.
            statement = SQLFragment(
                """
                WITH query AS (SELECT \(words) AS q) SELECT \(Self.selection) FROM \(from)
                 JOIN (SELECT ref, min(rank) AS rank FROM (
                         SELECT w.ref, -(10 * ts_rank(to_tsvector('simple', w.search_title), query.q) + ts_rank(w.search_vector, query.q)) AS rank
                         FROM (SELECT ref, search_title, search_vector FROM item, query WHERE search_vector @@ query.q
                               ORDER BY ref DESC LIMIT \(window)) w, query
                         UNION ALL
                         SELECT a.ref, 1000000 - ts_rank(a.search_vector, query.q) AS rank
                         FROM (SELECT ref, search_vector FROM item_article, query WHERE search_vector @@ query.q
                               ORDER BY ref DESC LIMIT \(window)) a, query) matched
                       GROUP BY ref) f
                 ON f.ref = i.ref
                """, phrases.map { SQLValue.text($0) })
        }
        for word in loose {
            conditions.append(
                SQLFragment(
                    "(strpos(i.title, ?) > 0 OR strpos(i.summary, ?) > 0 OR strpos(coalesce(i.author, ''), ?) > 0 OR strpos(i.tags, ?) > 0)",
                    Array(repeating: .text(word), count: 4)))
        }
        if !providers.isEmpty {
            conditions.append(SQLFragment("i.provider IN (\(SQLFragment.marks(providers.count)))", providers.map { .text($0) }))
        }
        conditions += (hiding.map { PostgresFilterSQL.hiding($0, now: now, user: userID) } ?? [])
        conditions += filters.map { PostgresFilterSQL.compile($0, now: now, user: userID) }
        append(conditions, to: &statement)
        statement.sql += phrases.isEmpty ? " ORDER BY i.published DESC" : " ORDER BY f.rank, i.published DESC"
        statement.sql += " LIMIT ?"
        statement.values.append(.integer(Int64(limit)))
        let finished = statement
        return try read { session in try session.rows(finished).map(Self.decode) }
    }

    /// What `search_title` and `search_text` hold for an item: its indexed pieces as
    /// ``searchable(_:)`` words.
    static func searchColumns(_ indexed: FullTextIndex.Entry.Indexed) -> (title: String, text: String) {
        let title = searchable(indexed.title)
        let rest = [indexed.summary, indexed.author ?? "", indexed.tags].map(searchable)
        return (title, ([title] + rest).joined(separator: "\n"))
    }

    /// `text` as SQLite's index reads it.
    ///
    /// Diacritics are folded and every character that is not a letter or digit is a
    /// separator. PostgreSQL's parser would keep `GRDB.swift` or
    /// `a@b.example` as one token and find neither `GRDB` nor `example` in it.
    static func searchable(_ text: String) -> String {
        let folded = SearchText.withoutDiacritics(text)
        var scalars = String.UnicodeScalarView()
        var changed = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == " " || scalar == "\n" {
                scalars.append(scalar)
            } else {
                scalars.append(" ")
                changed = true
            }
        }
        return changed ? String(scalars) : folded
    }
}
