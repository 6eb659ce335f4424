import AggregatorTestSupport
import GRDB
import XCTest

@testable import Aggregator

/// `aggr_rank` against FTS5's own bm25, and the order `aggr search` shows.
final class FullTextRankTests: StoreTestCase {
    /// Items whose words repeat and whose lengths vary, so the ranks differ.
    func corpus() -> [Item] {
        let filler = ["linux", "terminal", "release", "notes", "kernel", "update", "thread", "network"]
        return (0..<80).map { number in
            let repeats = number % 4
            let padding = (0..<(number % 9)).map { filler[($0 + number) % filler.count] }.joined(separator: " ")
            let title = (Array(repeating: "swift", count: repeats) + ["topic", "\(number)"]).joined(separator: " ")
            return ItemFactory.item(
                id: String(number), title: title, minutesAgo: number,
                summary: "\(padding) \(number % 3 == 0 ? "sqlite swift" : "sqlite") \(padding) \(padding)")
        }
    }

    func order(_ rank: String, _ match: String) throws -> [Int64] {
        try (store as! Store).read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM item_fts WHERE item_fts MATCH ? ORDER BY \(rank), rowid", arguments: [match])
        }
    }

    func testOneWordQueriesRankExactlyAsBM25() throws {
        try ingest(corpus())
        for word in ["swift", "sqlite", "kernel", "topic"] {
            let ours = try order("aggr_rank(item_fts)", "\"\(word)\"")
            XCTAssertFalse(ours.isEmpty, word)
            let weights = FullTextRank.columnWeights.map { String(Int($0)) }.joined(separator: ", ")
            XCTAssertEqual(ours, try order("bm25(item_fts, \(weights))", "\"\(word)\""), word)
        }
        let scores = try (store as! Store).read { db in
            try Double.fetchAll(db, sql: "SELECT aggr_rank(item_fts) FROM item_fts WHERE item_fts MATCH '\"swift\"'")
        }
        XCTAssertTrue(scores.allSatisfy { $0 < 0 }, "smaller is better, as with rank")
        XCTAssertGreaterThan(Set(scores).count, 3, "the rank tells rows apart")
    }

    func testSearchShowsTheBestMatchFirst() throws {
        try ingest([
            ItemFactory.item(id: "long", title: "Weekly notes", summary: "a long post mentioning parser once among many other words here"),
            ItemFactory.item(id: "short", title: "parser parser", minutesAgo: 30, summary: "parser"),
            ItemFactory.item(id: "none", title: "Unrelated", summary: "nothing to see"),
        ])
        XCTAssertEqual(try store.search("parser").map(\.item.id), ["short", "long"])
        XCTAssertEqual(try store.search("parser words").map(\.item.id), ["long"], "every word is required")
    }

    /// A title match outranks items whose only match is a tag (18 tag-only items ranked above
    /// every title match for 数据库).
    func testATitleMatchOutranksTagOnlyMatches() throws {
        var items = (0..<18).map { number in
            ItemFactory.item(id: "tagged\(number)", title: "周报 \(number)", minutesAgo: number, summary: "本周杂记", tags: ["数据库"])
        }
        items.append(
            ItemFactory.item(
                id: "titled", title: "数据库选型讨论：SQLite 还是 PostgreSQL", minutesAgo: 300,
                summary: "团队在评估存储方案，列出了迁移成本、运维负担、备份恢复和扩展性等多方面的考虑，欢迎补充经验"))
        try ingest(items)
        let results = try store.search("数据库", limit: 40)
        XCTAssertEqual(results.count, 19)
        XCTAssertEqual(results.first?.item.id, "titled", results.map(\.item.id).description)
    }
}
