import Aggregator
import AggregatorTestSupport
import XCTest

final class StoreIngestTests: StoreTestCase {
    func testSecondSightingUpdatesInPlaceAndNeverDuplicates() throws {
        let first = ItemFactory.item(id: "1", title: "Old title", metrics: Metrics(replies: 1))
        XCTAssertEqual(try ingest([first]), IngestResult(new: 1))
        let ref = try XCTUnwrap(store.item(provider: "forum", id: "1")).ref
        try store.markRead(refs: [ref], read: true, now: ItemFactory.epoch)

        var second = first
        second.title = "New title"
        second.metrics.replies = 9
        second.section = "latest"
        XCTAssertEqual(try ingest([second], now: ItemFactory.epoch.addingTimeInterval(3_600)), IngestResult(updated: 1))
        XCTAssertEqual(try ingest([second]), IngestResult(unchanged: 1))

        let stored = try XCTUnwrap(store.item(provider: "forum", id: "1"))
        XCTAssertEqual(stored.ref, ref)
        XCTAssertEqual(stored.item.title, "New title")
        XCTAssertEqual(stored.item.metrics.replies, 9)
        XCTAssertEqual(stored.item.section, "hot", "an item keeps the section it was first seen in")
        XCTAssertEqual(stored.firstSeen, ItemFactory.epoch)
        XCTAssertEqual(stored.readAt, ItemFactory.epoch, "updates keep read state")
        XCTAssertEqual(try store.itemCounts()["forum"], ProviderItemCount(total: 1, unread: 0))
    }

    func testSameIdTwiceInOneBatchIsStoredOnceWithTheLastVersion() throws {
        let result = try ingest([ItemFactory.item(id: "1", title: "a"), ItemFactory.item(id: "1", title: "b")])
        XCTAssertEqual(result, IngestResult(new: 1))
        XCTAssertEqual(try store.item(provider: "forum", id: "1")?.item.title, "b")
    }

    func testSameIdUnderTwoProvidersIsTwoItems() throws {
        try ingest([ItemFactory.item(provider: "a", id: "1")])
        try ingest([ItemFactory.item(provider: "b", id: "1")])
        XCTAssertEqual(try store.itemCounts().mapValues(\.total), ["a": 1, "b": 1])
    }

    func testEveryFieldRoundTrips() throws {
        let item = Item(
            provider: "forum", section: "hot", id: "x/1", kind: .release, title: "标题 🚀", url: "https://forum.example/x/1",
            author: Author(name: "bob", url: "https://forum.example/bob"), summary: "s", content: "<p>c</p>",
            published: ItemFactory.epoch, updated: ItemFactory.epoch.addingTimeInterval(60), tags: ["a", "b c"],
            metrics: Metrics(replies: 1, comments: 2, stars: 3, forks: 4, likes: 5, views: 6), image: "https://img.example/1.png",
            extra: ["node": "swift", "repo": "a/b"])
        try ingest([item])
        XCTAssertEqual(try store.item(provider: "forum", id: "x/1")?.item, item)

        // Unset stays unset and empty stays empty: NULL and "" (or 0) are different columns.
        let bare = Item(
            provider: "forum", section: "hot", id: "x/2", kind: .post, title: "", url: "https://forum.example/x/2", author: nil,
            summary: "", content: nil, published: ItemFactory.epoch, updated: nil, tags: [], metrics: Metrics(), image: nil, extra: [:])
        let empty = Item(
            provider: "forum", section: "hot", id: "x/3", kind: .post, title: "t", url: "https://forum.example/x/3",
            author: Author(name: "", url: nil), summary: "", content: "", published: ItemFactory.epoch, updated: nil, tags: [""],
            metrics: Metrics(replies: 0, views: 0), image: "", extra: ["": ""])
        try ingest([bare, empty])
        XCTAssertEqual(try store.item(provider: "forum", id: "x/2")?.item, bare)
        XCTAssertEqual(try store.item(provider: "forum", id: "x/3")?.item, empty)
        let stored = try XCTUnwrap(store.item(provider: "forum", id: "x/2"))
        XCTAssertNil(stored.readAt)
        XCTAssertNil(stored.savedAt)
        try store.markRead(refs: [stored.ref], read: true, now: ItemFactory.epoch)
        XCTAssertEqual(try store.item(ref: stored.ref)?.readAt, ItemFactory.epoch)
    }

    func testItemOfAnotherProviderIsRefused() {
        XCTAssertThrowsError(
            try store.ingest([ItemFactory.item(provider: "b", id: "1")], section: section("a", "hot"), now: ItemFactory.epoch))
    }

    func testSectionTitleIsStoredAndShownWithItems() throws {
        try ingest([ItemFactory.item(id: "1")])
        XCTAssertEqual(try store.item(provider: "forum", id: "1")?.sectionTitle, "forum › hot")
        try store.ingest(
            [], section: Section(provider: "forum", key: "hot", title: "Imported"), now: ItemFactory.epoch, keepSectionTitle: true,
            validators: [:], listed: true)
        XCTAssertEqual(try store.item(provider: "forum", id: "1")?.sectionTitle, "forum › hot")
    }

    func testReopeningKeepsEverythingAndANonDatabaseFileIsAClearError() throws {
        try ingest(ItemFactory.synthetic(provider: "forum", count: 10))
        store = nil
        store = try reopen()
        XCTAssertEqual(try store.itemCounts()["forum"]?.total, 10)
        guard !Self.onPostgres else { return }

        let bogus = directory.write("bogus.sqlite", String(repeating: "not sqlite ", count: 200))
        XCTAssertThrowsError(try Store(path: bogus)) { error in
            XCTAssertEqual("\(error)", "database \(bogus): not an aggr database (the file is not SQLite)")
        }
    }

    func testProviderStateAndValidatorsPersist() throws {
        var state = ProviderState(provider: "forum")
        state.lastAttempt = ItemFactory.epoch
        state.lastError = "HTTP 503"
        state.consecutiveFailures = 3
        state.nextAllowedFetch = ItemFactory.epoch.addingTimeInterval(600)
        try store.saveProviderState(state)
        XCTAssertEqual(try store.providerStates()["forum"], state)

        try store.saveValidators(HTTPValidators(etag: "\"abc\"", lastModified: nil), for: "https://a.example/x", provider: "forum")
        XCTAssertEqual(
            try store.validators(for: "https://a.example/x", provider: "forum"), HTTPValidators(etag: "\"abc\"", lastModified: nil))
        XCTAssertNil(try store.validators(for: "https://a.example/y", provider: "forum"))
        XCTAssertNil(try store.validators(for: "https://a.example/x", provider: "other"), "validators belong to one provider")

        // Read at once for a refresh: the providers asked for, every URL of theirs.
        try store.saveValidators(
            HTTPValidators(etag: nil, lastModified: "Fri, 20 Nov 2026 10:00:00 GMT"), for: "https://a.example/z", provider: "forum")
        try store.saveValidators(HTTPValidators(etag: "\"o\"", lastModified: nil), for: "https://o.example/", provider: "other")
        try store.saveValidators(HTTPValidators(etag: "\"n\"", lastModified: nil), for: "https://n.example/", provider: "not-asked")
        let all = try store.validators(of: ["forum", "other", "absent"])
        if store is Store { XCTAssertNotNil(all, "SQLite reads them at once") }
        if let all {
            XCTAssertEqual(
                all,
                [
                    "forum": [
                        "https://a.example/x": HTTPValidators(etag: "\"abc\"", lastModified: nil),
                        "https://a.example/z": HTTPValidators(etag: nil, lastModified: "Fri, 20 Nov 2026 10:00:00 GMT"),
                    ],
                    "other": ["https://o.example/": HTTPValidators(etag: "\"o\"", lastModified: nil)],
                ])
        }
    }

    /// A refresh's writes share a transaction: each keeps its own result, one that fails is
    /// rolled back alone, and provider states ride along.
    func testGroupedWritesFailAloneAndKeepTheRest() throws {
        let good = [ItemFactory.item(id: "1"), ItemFactory.item(id: "2")]
        let stray = [ItemFactory.item(provider: "other", id: "9")]
        var state = ProviderState(provider: "forum")
        state.consecutiveFailures = 3
        let results = store.write([
            .ingest(items: PreparedItems(good), section: section("forum", "hot"), now: ItemFactory.epoch, validators: [:]),
            .ingest(
                items: PreparedItems([ItemFactory.item(id: "3")] + stray), section: section("forum", "new"), now: ItemFactory.epoch,
                validators: [:]),
            .providerState(state),
            .ingest(
                items: PreparedItems([ItemFactory.item(id: "4")]), section: section("forum", "hot"), now: ItemFactory.epoch, validators: [:]
            ),
        ])
        XCTAssertEqual(try results[0].get(), IngestResult(new: 2))
        XCTAssertThrowsError(try results[1].get()) { XCTAssertTrue("\($0)".contains("ingested into forum"), "\($0)") }
        XCTAssertEqual(try results[3].get(), IngestResult(new: 1))
        XCTAssertEqual(try timelineIDs().sorted(), ["forum:1", "forum:2", "forum:4"], "item 3 went back with its failing write")
        XCTAssertEqual(try store.providerStates()["forum"]?.consecutiveFailures, 3)
        XCTAssertEqual(Set(try store.sections().map(\.key)), ["hot"], "the failed write's section row went back too")
    }

    /// When the transaction itself cannot run (a store opened for reading), every write of
    /// the group fails with the store's error at once, and nothing is stored.
    func testGroupedWritesOnAStoreThatCannotWriteAllFail() throws {
        guard store is Store else { throw XCTSkip("SQLite's read-only opening") }
        try store.ingest([ItemFactory.item(id: "1")], section: section("forum", "hot"), now: ItemFactory.epoch)
        let reader = try Store.forReading(path: directory.file("aggr.sqlite"))
        XCTAssertTrue(reader.isReadOnly)
        let results = reader.write([
            .ingest(
                items: PreparedItems([ItemFactory.item(id: "2")]), section: section("forum", "hot"), now: ItemFactory.epoch, validators: [:]
            ),
            .providerState(ProviderState(provider: "forum")),
        ])
        XCTAssertEqual(results.count, 2)
        for result in results {
            XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is StoreError, "\($0)") }
        }
        XCTAssertEqual(try timelineIDs(), ["forum:1"])
    }
}
