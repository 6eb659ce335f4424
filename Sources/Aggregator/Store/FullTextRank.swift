internal import GRDB
internal import GRDBSQLite

/// `aggr_rank(item_fts)`: how well a full-text match fits, BM25 without its IDF factor
/// (smaller is better, like FTS5's `rank`).
///
/// FTS5's built-in bm25() weighs each word by its IDF, which it learns by walking the word's
/// whole doclist once per query: 10–50 ms on a million items for common words, while finding
/// the newest 1,000 matches takes about 1 ms. A search requires every word, so every result
/// contains every word and IDF only weighs the words against each other; for a one-word query
/// the order is exactly bm25's with the same column weights. The rest is bm25 as FTS5
/// computes it (k1 = 1.2, b = 0.75, each match counted with its column's weight, document
/// length against the table's average).
enum FullTextRank {
    static let name = "aggr_rank"

    /// What a match in each column counts, in the table's order (title, summary, author,
    /// tags): a word in the title says far more about an item than the same word in a tag.
    static let columnWeights: [Double] = [10, 1, 2, 2]

    /// Registers the function on one connection.
    static func register(in db: Database) throws {
        let api = FTS5.api(db)
        guard let create = api.pointee.xCreateFunction,
            create(UnsafeMutablePointer(mutating: api), name, nil, function, nil) == SQLITE_OK
        else {
            throw DatabaseError(message: "cannot register the FTS5 function \(name)")
        }
    }

    static let function: fts5_extension_function = { api, fts, context, _, _ in
        guard let api = api?.pointee, let rowCount = api.xRowCount, let totalSize = api.xColumnTotalSize,
            let columnSize = api.xColumnSize, let phraseCount = api.xPhraseCount, let instCount = api.xInstCount, let inst = api.xInst
        else { return }
        var rows: sqlite3_int64 = 0
        var tokens: sqlite3_int64 = 0
        var length: Int32 = 0
        var instances: Int32 = 0
        guard rowCount(fts, &rows) == SQLITE_OK, totalSize(fts, -1, &tokens) == SQLITE_OK, columnSize(fts, -1, &length) == SQLITE_OK,
            instCount(fts, &instances) == SQLITE_OK
        else {
            sqlite3_result_error(context, "aggr_rank: FTS5 refused a statistic", -1)
            return
        }
        // How often each phrase occurs in this row, each occurrence weighted by its column.
        var frequency = [Double](repeating: 0, count: Int(phraseCount(fts)))
        for index in 0..<instances {
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            if inst(fts, index, &phrase, &column, &offset) == SQLITE_OK, frequency.indices.contains(Int(phrase)) {
                frequency[Int(phrase)] += columnWeights.indices.contains(Int(column)) ? columnWeights[Int(column)] : 1
            }
        }
        let (k1, b) = (1.2, 0.75)
        let average = rows > 0 && tokens > 0 ? Double(tokens) / Double(rows) : 1
        let lengthFactor = k1 * (1 - b + b * Double(length) / average)
        let score = frequency.reduce(0.0) { sum, count in count > 0 ? sum + count * (k1 + 1) / (count + lengthFactor) : sum }
        sqlite3_result_double(context, -score)
    }
}
