internal import GRDB

/// Keeps the contentless `item_fts` table in step with `item`.
///
/// A contentless FTS5 table stores no text, so removing a row means handing FTS5 the exact
/// values that were indexed; every change to title, summary, author or tags goes through
/// here inside the same transaction as the change to `item`.
package enum FullTextIndex {
    /// The indexed values of one item.
    package struct Entry: Equatable {
        package var title: String
        package var summary: String
        package var author: String?
        package var tags: [String]

        /// The text each column of the index gets: CJK runs cut into two-character pieces.
        package struct Indexed: Sendable {
            package var title: String
            package var summary: String
            package var author: String?
            package var tags: String
        }

        /// `item`'s indexed values.
        package init(_ item: Item) {
            self.init(title: item.title, summary: item.summary, author: item.author?.name, tags: item.tags)
        }

        package init(title: String, summary: String, author: String?, tags: [String]) {
            self.title = title
            self.summary = summary
            self.author = author
            self.tags = tags
        }

        package var indexed: Indexed {
            Indexed(
                title: SearchText.indexable(title), summary: SearchText.indexable(summary), author: author.map(SearchText.indexable),
                tags: SearchText.indexable(tags.joined(separator: " ")))
        }

        var columns: [DatabaseValueConvertible?] {
            let indexed = indexed
            return [indexed.title, indexed.summary, indexed.author, indexed.tags]
        }
    }

    /// Indexes new rows through one prepared statement (the ingest hot path).
    struct Inserter {
        let statement: PreparedStatement

        init(in db: Database) throws {
            statement = PreparedStatement(
                try db.cachedStatement(sql: "INSERT INTO item_fts (rowid, title, summary, author, tags) VALUES (?, ?, ?, ?, ?)"), in: db)
        }

        func insert(_ indexed: Entry.Indexed, ref: Int64) throws {
            statement.bind(ref, at: 1)
            statement.bind(indexed.title, at: 2)
            statement.bind(indexed.summary, at: 3)
            statement.bind(indexed.author, at: 4)
            statement.bind(indexed.tags, at: 5)
            try statement.execute()
        }
    }

    static func insert(_ entry: Entry, ref: Int64, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO item_fts (rowid, title, summary, author, tags) VALUES (?, ?, ?, ?, ?)")
        try statement.execute(arguments: StatementArguments([ref] + entry.columns))
    }

    static func delete(_ entry: Entry, ref: Int64, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO item_fts (item_fts, rowid, title, summary, author, tags) VALUES ('delete', ?, ?, ?, ?, ?)")
        try statement.execute(arguments: StatementArguments([ref] + entry.columns))
    }

    /// Removes the index entries of every item matching `condition`, before those items are deleted.
    static func deleteRows(where condition: String, arguments: StatementArguments, in db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT ref, title, summary, author, tags FROM item WHERE \(condition)", arguments: arguments)
        for row in rows {
            let entry = Entry(title: row[1], summary: row[2], author: row[3], tags: ItemRow.decodeTags(row[4]))
            try delete(entry, ref: row[0], in: db)
        }
    }
}
