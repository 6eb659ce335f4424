import Aggregator
import AggregatorTestSupport
import XCTest

/// What every storage backend must do beyond ingest, timeline and retention.
///
/// Read and saved state, labels, upstream actions, check-ins, full text, threads, streams,
/// notification marks, icons, secrets and the change counter. A store suite: `make test`
/// runs it on SQLite and on PostgreSQL.
final class StorageBehaviourTests: StoreTestCase {
    func ref(_ id: String, provider: String = "forum") throws -> Int64 {
        try XCTUnwrap(store.item(provider: provider, id: id)).ref
    }

    func testReadAndSavedStateCountAndFilter() throws {
        try ingest((1...4).map { ItemFactory.item(id: "\($0)", minutesAgo: $0) })
        let version = try store.dataVersion()
        XCTAssertEqual(
            try store.markRead(refs: [ref("1"), ref("2"), 999_999], read: true, now: ItemFactory.epoch), 2, "only stored items count")
        XCTAssertGreaterThan(try store.dataVersion(), version, "a read mark moves the change counter")
        XCTAssertEqual(try store.itemCounts()["forum"], ProviderItemCount(total: 4, unread: 2))
        XCTAssertEqual(try timelineIDs { $0.readOnly = true }, ["forum:1", "forum:2"])
        XCTAssertEqual(try store.item(ref: ref("1"))?.readAt, ItemFactory.epoch)
        XCTAssertEqual(try store.markRead(refs: [ref("1")], read: false, now: ItemFactory.epoch), 1)
        XCTAssertNil(try store.item(ref: ref("1"))?.readAt)

        let later = ItemFactory.epoch.addingTimeInterval(60)
        XCTAssertEqual(try store.markSaved(refs: [ref("3")], saved: true, now: ItemFactory.epoch), 1)
        XCTAssertEqual(try store.markSaved(refs: [ref("3")], saved: true, now: later), 1)
        XCTAssertEqual(try store.item(ref: ref("3"))?.savedAt, ItemFactory.epoch, "saving again keeps the first time")
        XCTAssertEqual(try timelineIDs { $0.savedOnly = true }, ["forum:3"])
        XCTAssertEqual(try timelineIDs { $0.unsavedOnly = true }.count, 3)
        XCTAssertEqual(try store.markSaved(refs: [ref("3")], saved: false, now: later), 1)
        XCTAssertEqual(try timelineIDs { $0.savedOnly = true }, [])

        var query = TimelineQuery()
        query.filters = [try FilterParser.parse("replies > 0 or title ~ \"Item [34]\"")]
        XCTAssertEqual(try store.markRead(matching: query, now: later), 2)
        XCTAssertEqual(try store.markAllRead(providers: ["other"], now: later), 0)
        XCTAssertEqual(try store.markAllRead(providers: [], now: later), 1, "items 1 left")
        XCTAssertEqual(try store.itemCounts()["forum"]?.unread, 0)
        XCTAssertEqual(try store.sections().map(\.unread), [0])
    }

    func testSectionsCountUnreadAndKeepTitles() throws {
        try ingest([ItemFactory.item(id: "1", minutesAgo: 5), ItemFactory.item(id: "2", minutesAgo: 1)])
        try ingest([ItemFactory.item(provider: "alpha", section: "new", id: "a")])
        let sections = try store.sections()
        XCTAssertEqual(sections.map { "\($0.provider)/\($0.key)" }, ["alpha/new", "forum/hot"])
        XCTAssertEqual(sections.map(\.unread), [1, 2])
        XCTAssertEqual(sections[1].newestUnread, ItemFactory.epoch.addingTimeInterval(-60))
        XCTAssertEqual(try store.sectionTitles().map(\.title), ["alpha › new", "forum › hot"])
        XCTAssertEqual(try store.latestRef(), try ref("a", provider: "alpha"))
    }

    func testLabelsBelongToItemsAndFilter() throws {
        try ingest((1...3).map { ItemFactory.item(id: "\($0)", minutesAgo: $0) })
        XCTAssertEqual(try store.setLabel("later", on: [ref("1"), ref("2"), 424_242], true), 2)
        XCTAssertEqual(try store.setLabel("work", on: [ref("2")], true), 1)
        XCTAssertEqual(try store.labels(of: [ref("1"), ref("2"), ref("3")]), [try ref("1"): ["later"], try ref("2"): ["later", "work"]])
        XCTAssertEqual(try store.labelUse().map { "\($0.label)=\($0.items)" }, ["later=2", "work=1"])
        XCTAssertEqual(try timelineIDs { $0.labels = ["work"] }, ["forum:2"])
        let labelled = try FilterParser.parse(#"labels has "LATER""#)
        XCTAssertEqual(try timelineIDs { $0.filters = [labelled] }, ["forum:1", "forum:2"])
        XCTAssertEqual(try store.renameLabel("later", to: "work"), 2)
        XCTAssertEqual(try store.labelUse().map { "\($0.label)=\($0.items)" }, ["work=2"], "renaming merges")
        XCTAssertEqual(try store.setLabel("work", on: [ref("1")], false), 1)
        XCTAssertEqual(try store.removeLabel("work"), 1)
        XCTAssertEqual(try store.labelUse().count, 0)
        try store.setLabel("gone", on: [ref("3")], true)
        try store.remove(refs: [ref("3")])
        XCTAssertEqual(try store.labelUse().count, 0, "labels go with their item")
    }

    func testActionsMoveCountersAndCheckinsAreKept() throws {
        try ingest([ItemFactory.item(id: "1", metrics: Metrics(likes: 4))])
        let item = try ref("1")
        XCTAssertTrue(try store.setActionState(.like, on: item, done: true, metric: "likes", delta: 1, now: ItemFactory.epoch))
        XCTAssertTrue(try store.setActionState(.thank, on: item, done: true, metric: nil, delta: 0, now: ItemFactory.epoch))
        XCTAssertFalse(try store.setActionState(.like, on: 777_777, done: true, metric: "likes", delta: 1, now: ItemFactory.epoch))
        XCTAssertEqual(try store.actionStates(of: [item]), [item: [.like, .thank]])
        XCTAssertEqual(try store.item(ref: item)?.item.metrics.likes, 5)
        XCTAssertTrue(try store.setActionState(.like, on: item, done: false, metric: "likes", delta: -9, now: ItemFactory.epoch))
        XCTAssertEqual(try store.item(ref: item)?.item.metrics.likes, 0, "a counter never goes below zero")
        XCTAssertEqual(try store.actionStates(of: [item]), [item: [.thank]])

        XCTAssertNil(try store.lastCheckin(provider: "v2ex"))
        try store.saveCheckin(CheckinRecord(day: "2026-11-21", streak: 3, at: ItemFactory.epoch), provider: "v2ex")
        try store.saveCheckin(
            CheckinRecord(day: "2026-11-22", streak: 4, at: ItemFactory.epoch.addingTimeInterval(86_400)), provider: "v2ex")
        XCTAssertEqual(
            try store.lastCheckin(provider: "v2ex"),
            CheckinRecord(day: "2026-11-22", streak: 4, at: ItemFactory.epoch.addingTimeInterval(86_400)))
    }

    func testArticlesAreKeptSearchedAndGoWithTheirItem() throws {
        try ingest([ItemFactory.item(id: "1", title: "Short link post"), ItemFactory.item(id: "2", title: "Other")])
        let article = Article(
            title: "Long read", byline: "Ann", content: "<p>Concurrency in depth 数据库</p>", text: "Concurrency in depth 数据库")
        XCTAssertTrue(try store.saveArticle(article, of: ref("1"), now: ItemFactory.epoch))
        XCTAssertFalse(try store.saveArticle(article, of: 31_337, now: ItemFactory.epoch))
        XCTAssertEqual(
            try store.article(of: ref("1")), Article(title: "Long read", byline: "Ann", content: article.content, text: article.text))
        XCTAssertEqual(try store.search("concurrency").map(\.item.id), ["1"], "found through its page's text")
        XCTAssertEqual(try store.search("数据库").map(\.item.id), ["1"])
        var replaced = article
        replaced.text = "Parsing instead"
        XCTAssertTrue(try store.saveArticle(replaced, of: ref("1"), now: ItemFactory.epoch))
        XCTAssertEqual(try store.search("concurrency"), [])
        XCTAssertEqual(try store.search("parsing").map(\.item.id), ["1"])
        let gone = try ref("1")
        try store.remove(refs: [gone])
        XCTAssertNil(try store.article(of: gone))
        XCTAssertEqual(try store.search("parsing"), [])
    }

    func testSearchRanksTitlesFirstAndNarrowsByProviderAndFilter() throws {
        try ingest([
            ItemFactory.item(id: "1", title: "Weekly notes", minutesAgo: 1, summary: "a word about kernels"),
            ItemFactory.item(id: "2", title: "Kernels explained", minutesAgo: 9),
        ])
        try ingest([ItemFactory.item(provider: "other", id: "3", title: "kernels again", minutesAgo: 2, kind: .release)])
        let ranked = try store.search("kernels").map(\.item.id)
        XCTAssertEqual(Set(ranked.prefix(2)), ["2", "3"], "title matches first")
        XCTAssertEqual(ranked.last, "1")
        XCTAssertEqual(try store.search("kernels", providers: ["forum"]).map(\.item.id), ["2", "1"])
        XCTAssertEqual(try store.search("kernels", filters: [try FilterParser.parse("kind = release")]).map(\.item.id), ["3"])
        XCTAssertEqual(try store.search("kernels explained").map(\.item.id), ["2"], "every word must match")
        XCTAssertEqual(try store.search("kernels", limit: 1).count, 1)
        XCTAssertThrowsError(try store.search("kernels\u{0}")) { XCTAssertTrue($0 is SearchError, "\($0)") }
        XCTAssertEqual(try store.search(String(repeating: "kernels ", count: 500)).count, 3, "many words are one query")
    }

    func testThreadsAreFoundByTopicAndByNoteIds() throws {
        var topic = ItemFactory.item(id: "t1", kind: .topic)
        topic.extra = [:]
        var replies = (1...3).map { number -> Item in
            var reply = ItemFactory.item(id: "r\(number)", minutesAgo: 10 - number, kind: .reply)
            reply.extra = ["topic": "t1"]
            return reply
        }
        replies.append(ItemFactory.item(id: "t1/note/9", minutesAgo: 1, kind: .reply))
        replies.append(ItemFactory.item(id: "other", minutesAgo: 1, kind: .reply))
        try ingest([topic] + replies)
        let stored = try XCTUnwrap(store.item(provider: "forum", id: "t1"))
        XCTAssertEqual(try store.thread(of: stored).map(\.item.id), ["r1", "r2", "r3", "t1/note/9"])
        XCTAssertEqual(try store.thread(of: stored, limit: 2).map(\.item.id), ["r1", "r2"])
    }

    func testStreamsStoreEverythingOrNothing() throws {
        let items = ItemFactory.synthetic(provider: "bulk", count: 300) + ItemFactory.synthetic(provider: "more", section: "s", count: 50)
        let batches = LockedBatches(stride(from: 0, to: items.count, by: 64).map { Array(items[$0..<min($0 + 64, items.count)]) })
        let result = try store.ingestStream(now: ItemFactory.epoch) { batches.next() }
        XCTAssertEqual(result, IngestResult(new: 350))
        XCTAssertEqual(try store.itemCounts()["bulk"]?.total, 300)
        XCTAssertEqual(try store.sectionTitles().map(\.title), ["bulk/hot", "more/s"])
        XCTAssertEqual(try store.search("数据库", limit: 1000).count, items.filter { "\($0.title) \($0.summary)".contains("数据库") }.count)

        struct Broken: Error {}
        let failing = LockedBatches([ItemFactory.synthetic(provider: "late", count: 10)])
        XCTAssertThrowsError(
            try store.ingestStream(now: ItemFactory.epoch) {
                if let batch = failing.next() { return batch }
                throw Broken()
            })
        XCTAssertNil(try store.itemCounts()["late"], "a stream that fails stores nothing")
        XCTAssertEqual(try store.ingestStream(now: ItemFactory.epoch) { nil }, IngestResult())
    }

    func testMarksIconsAndSecrets() throws {
        XCTAssertEqual(try store.notificationMarks(), [:])
        try store.setNotificationMark(rule: "mentions", ref: 10, now: ItemFactory.epoch)
        try store.setNotificationMark(rule: "mentions", ref: 4, now: ItemFactory.epoch)
        XCTAssertEqual(try store.notificationMarks(), ["mentions": 10], "a mark only moves forward")
        // Two watches that both saw the mark at 10: one moves it and notifies, the other not.
        XCTAssertTrue(try store.advanceNotificationMark(rule: "mentions", from: 10, to: 15))
        XCTAssertFalse(try store.advanceNotificationMark(rule: "mentions", from: 10, to: 16))
        XCTAssertFalse(try store.advanceNotificationMark(rule: "unknown", from: 0, to: 16))
        XCTAssertEqual(try store.notificationMarks(), ["mentions": 15])

        XCTAssertNil(try store.siteIcon("https://a.example"))
        let icon = SiteIcon(
            site: "https://a.example", contentType: "image/png", data: [0x89, 0x50, 0x4E, 0x47, 0, 255], fetchedAt: ItemFactory.epoch)
        try store.saveSiteIcon(icon)
        try store.saveSiteIcon(SiteIcon(site: "https://b.example", contentType: nil, data: [], fetchedAt: ItemFactory.epoch))
        XCTAssertEqual(try store.siteIcon("https://a.example"), icon)
        XCTAssertEqual(try store.siteIcon("https://b.example")?.hasImage, false)
        XCTAssertEqual(try store.siteIcons().map(\.site), ["https://a.example"])

        let secret = try store.installationSecret("serve", now: ItemFactory.epoch)
        XCTAssertEqual(secret.count, 64)
        XCTAssertEqual(try store.installationSecret("serve", now: ItemFactory.epoch), secret)
        try store.rotateInstallationSecret("serve", now: ItemFactory.epoch)
        XCTAssertNotEqual(try store.installationSecret("serve", now: ItemFactory.epoch), secret)
    }

    func testItemNumbersOnlyGrowAndUnknownOnesAreIgnored() throws {
        try ingest((1...3).map { ItemFactory.item(id: "\($0)") })
        let newest = try store.latestRef()
        try store.remove(refs: [newest])
        try ingest([ItemFactory.item(id: "4")])
        XCTAssertGreaterThan(try ref("4"), newest, "a removed number is never given again")
        XCTAssertEqual(try store.items(refs: [ref("4"), 123_456, ref("1")]).map(\.item.id), ["4", "1"], "in the order asked")
        XCTAssertTrue(try store.holdsItem(provider: "forum", id: "2"))
        XCTAssertFalse(try store.holdsItem(provider: "forum", id: "3"))
        try store.checkIntegrity()
    }
}

/// Batches handed out one at a time to a stream's reading thread.
final class LockedBatches: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [[Item]]

    init(_ batches: [[Item]]) { self.batches = batches }

    func next() -> [Item]? {
        lock.lock()
        defer { lock.unlock() }
        return batches.isEmpty ? nil : batches.removeFirst()
    }
}
