import Foundation
internal import GRDB

extension Store {
    /// The article extracted from item `ref`'s page, if one was.
    public func article(of ref: Int64) throws -> Article? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT title, byline, content, text FROM item_article WHERE ref = ?", arguments: [ref]).map {
                Article(title: $0["title"], byline: $0["byline"], content: $0["content"], text: $0["text"])
            }
        }
    }

    /// Keeps `article` as item `ref`'s full text (replacing one kept before); false when
    /// there is no such item.
    @discardableResult
    public func saveArticle(_ article: Article, of ref: Int64, now: Date) throws -> Bool {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM item WHERE ref = ?", arguments: [ref]) == true else { return false }
            try db.execute(
                sql: "INSERT OR REPLACE INTO item_article (ref, title, byline, content, text, fetched_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [ref, article.title, article.byline, article.content, article.text, Self.millis(now)])
            try db.execute(sql: "DELETE FROM article_fts WHERE rowid = ?", arguments: [ref])
            try db.execute(
                sql: "INSERT INTO article_fts (rowid, text) VALUES (?, ?)", arguments: [ref, SearchText.indexable(article.text)])
            try Self.noteTimelineChange(in: db)
            return true
        }
    }
}
