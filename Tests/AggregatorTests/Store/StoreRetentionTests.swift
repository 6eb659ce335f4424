import Aggregator
import AggregatorTestSupport
import XCTest

final class StoreRetentionTests: StoreTestCase {
    func testPruneByCountKeepsNewestPerProviderAndTombstonesTheRest() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 10))
        try ingest(ItemFactory.synthetic(provider: "b", count: 3))
        let result = try store.prune(RetentionPolicy(maxItemsPerProvider: 4, maxAge: nil), now: ItemFactory.epoch)
        XCTAssertEqual(result, PruneResult(byAge: 0, byCount: 6, byRequest: 0))
        XCTAssertEqual(try store.itemCounts().mapValues(\.total), ["a": 4, "b": 3])
        XCTAssertEqual(try timelineIDs { $0.providers = ["a"] }, ["a:0", "a:1", "a:2", "a:3"], "the newest four stay")

        let again = try ingest(ItemFactory.synthetic(provider: "a", count: 10))
        XCTAssertEqual(again, IngestResult(new: 0, updated: 0, unchanged: 4, tombstoned: 6), "pruned items never come back")
    }

    func testPruneByAge() throws {
        try ingest([ItemFactory.item(id: "new", minutesAgo: 10), ItemFactory.item(id: "old", minutesAgo: 60 * 24 * 10)])
        let result = try store.prune(RetentionPolicy(maxItemsPerProvider: nil, maxAge: TimeSpan(parsing: "7d")), now: ItemFactory.epoch)
        XCTAssertEqual(result.byAge, 1)
        XCTAssertEqual(try timelineIDs(), ["forum:new"])
        XCTAssertEqual(try ingest([ItemFactory.item(id: "old", minutesAgo: 60 * 24 * 10)]).tombstoned, 1)
    }

    func testTombstonesAreForgottenOnlyWhenUpstreamStoppedListingTheItem() throws {
        let day = 86_400.0
        let start = ItemFactory.epoch
        try ingest([ItemFactory.item(id: "listed"), ItemFactory.item(id: "dropped")])
        let refs = try ["listed", "dropped"].map { try XCTUnwrap(store.item(provider: "forum", id: $0)).ref }
        try store.remove(refs: refs, now: start)
        // Upstream keeps listing one of them for 60 days.
        XCTAssertEqual(
            try ingest([ItemFactory.item(id: "listed")], now: start.addingTimeInterval(60 * day)).tombstoned, 1)
        XCTAssertEqual(try store.prune(RetentionPolicy(), now: start.addingTimeInterval(89 * day)).forgottenTombstones, 0)
        XCTAssertEqual(try store.prune(RetentionPolicy(), now: start.addingTimeInterval(91 * day)).forgottenTombstones, 1)
        let later = start.addingTimeInterval(100 * day)
        XCTAssertEqual(
            try ingest([ItemFactory.item(id: "listed"), ItemFactory.item(id: "dropped")], now: later),
            IngestResult(new: 1, tombstoned: 1), "the tombstone met 60 days in still holds; the forgotten one does not")
        XCTAssertEqual(try store.prune(RetentionPolicy(), now: later.addingTimeInterval(151 * day)).forgottenTombstones, 1)
    }

    func testDeletedItemsAndRemovedProvidersStayGone() throws {
        try ingest([ItemFactory.item(id: "1"), ItemFactory.item(id: "2")])
        try ingest([ItemFactory.item(provider: "gone", id: "1")])
        let ref = try XCTUnwrap(store.item(provider: "forum", id: "1")).ref
        XCTAssertEqual(try store.remove(refs: [ref]), 1)
        XCTAssertEqual(try store.removeProviders(notIn: ["forum"]), 1)
        XCTAssertEqual(try timelineIDs(), ["forum:2"])
        XCTAssertEqual(try ingest([ItemFactory.item(id: "1"), ItemFactory.item(id: "2")]), IngestResult(unchanged: 1, tombstoned: 1))
    }

    func testFullTextIndexFollowsInsertUpdateAndDelete() throws {
        try ingest([ItemFactory.item(id: "1", title: "Swift concurrency deep dive", tags: ["tutorial"])])
        XCTAssertEqual(try store.search("concurrency").map(\.item.id), ["1"])
        XCTAssertEqual(try store.search("tutorial").map(\.item.id), ["1"], "tags are indexed")
        XCTAssertEqual(try store.search("alice").map(\.item.id), ["1"], "the author is indexed")

        try ingest([ItemFactory.item(id: "1", title: "Rust ownership explained", tags: ["tutorial"])])
        XCTAssertEqual(try store.search("concurrency"), [])
        XCTAssertEqual(try store.search("ownership").map(\.item.id), ["1"])

        let ref = try XCTUnwrap(store.item(provider: "forum", id: "1")).ref
        try store.remove(refs: [ref])
        XCTAssertEqual(try store.search("ownership"), [])
    }

    func testSearchFoldsDiacriticsAndSplitsMixedScripts() throws {
        try ingest([
            ItemFactory.item(id: "1", title: "Café crème in Zürich"),
            ItemFactory.item(id: "2", title: "用Swift写服务端"),
        ])
        XCTAssertEqual(try store.search("cafe zurich").map(\.item.id), ["1"])
        XCTAssertEqual(try store.search("swift").map(\.item.id), ["2"], "Latin inside CJK text is its own word")
        XCTAssertEqual(try store.search("服务端").map(\.item.id), ["2"])
        XCTAssertEqual(try store.search("写服").map(\.item.id), ["2"])
    }

    func testIndexStaysConsistentThroughUpdatesAndPrunes() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 200))
        var changed = ItemFactory.synthetic(provider: "a", count: 200)
        for index in changed.indices where index % 3 == 0 { changed[index].title = "renamed \(index) 新标题" }
        try ingest(changed)
        _ = try store.prune(RetentionPolicy(maxItemsPerProvider: 120, maxAge: nil), now: ItemFactory.epoch)
        XCTAssertEqual(try store.search("renamed").count, 40)
        XCTAssertEqual(try store.search("新标题", limit: 500).count, 40)
        XCTAssertEqual(try store.search("question", limit: 500).count, 80, "titles replaced by renames no longer match")
        try store.checkIntegrity()
    }

    func testSearchFindsChineseAndJapaneseWithoutWordSegmentation() throws {
        try ingest([
            ItemFactory.item(id: "zh", title: "如何提高数据库的并发性能"),
            ItemFactory.item(id: "ja", title: "東京でスイフトの勉強会を開催します"),
            ItemFactory.item(id: "en", title: "Database tuning"),
        ])
        XCTAssertEqual(try store.search("数据库").map(\.item.id), ["zh"])
        XCTAssertEqual(try store.search("并发").map(\.item.id), ["zh"], "two-character words fall back to LIKE")
        XCTAssertEqual(try store.search("勉強会").map(\.item.id), ["ja"])
        XCTAssertEqual(try store.search("database").map(\.item.id), ["en"], "case-insensitive")
        XCTAssertEqual(try store.search("库").map(\.item.id), ["zh"], "a lone CJK character falls back to LIKE")
        XCTAssertEqual(try store.search("数据库 性能").map(\.item.id), ["zh"], "every word must match")
        XCTAssertEqual(try store.search("数据库 tuning"), [])
        XCTAssertEqual(try store.search("\"quoted' OR 1=1 --"), [], "query text is data, never syntax")
        XCTAssertEqual(try store.search("NEAR(a b) OR *"), [], "FTS5 operators in the query are plain words")
        XCTAssertEqual(try store.search("50%"), [])
    }
}
