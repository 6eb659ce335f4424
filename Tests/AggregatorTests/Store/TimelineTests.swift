import Aggregator
import AggregatorTestSupport
import XCTest

final class TimelineTests: StoreTestCase {
    func testNewestFirstWithTiesByProviderThenId() throws {
        try ingest([ItemFactory.item(provider: "b", id: "2", minutesAgo: 5), ItemFactory.item(provider: "b", id: "1", minutesAgo: 5)])
        try ingest([ItemFactory.item(provider: "a", id: "9", minutesAgo: 5), ItemFactory.item(provider: "a", id: "0", minutesAgo: 1)])
        XCTAssertEqual(try timelineIDs(), ["a:0", "a:9", "b:1", "b:2"])
    }

    func testSamePageThroughTwoProvidersIsShownOnce() throws {
        try ingest([ItemFactory.item(provider: "github", id: "r1", url: "https://github.com/a/b/releases/tag/v1", minutesAgo: 2)])
        try ingest([ItemFactory.item(provider: "feed", id: "x", url: "http://www.github.com/a/b/releases/tag/v1/", minutesAgo: 1)])
        XCTAssertEqual(try timelineIDs(), ["github:r1"], "the first-stored copy wins")
        XCTAssertEqual(try timelineIDs { $0.providers = ["feed"] }, ["feed:x"], "a provider's own view shows its copy")
        XCTAssertEqual(try timelineIDs { $0.dedupe = false }, ["feed:x", "github:r1"])
    }

    func testFilters() throws {
        try ingest([
            ItemFactory.item(id: "1", minutesAgo: 10, kind: .topic),
            ItemFactory.item(id: "2", minutesAgo: 60 * 30, kind: .release),
        ])
        try ingest([ItemFactory.item(section: "node/swift", id: "3", minutesAgo: 20)])
        try store.markRead(refs: [XCTUnwrap(store.item(provider: "forum", id: "1")).ref])
        XCTAssertEqual(try timelineIDs { $0.kinds = [.release] }, ["forum:2"])
        XCTAssertEqual(try timelineIDs { $0.sections = ["node/swift"] }, ["forum:3"])
        XCTAssertEqual(try timelineIDs { $0.since = ItemFactory.epoch.addingTimeInterval(-3_600) }, ["forum:1", "forum:3"])
        XCTAssertEqual(try timelineIDs { $0.unreadOnly = true }, ["forum:3", "forum:2"])
        XCTAssertEqual(try timelineIDs { $0.providers = ["nobody"] }, [])
    }

    func testPagesAndCursorsWalkTheWholeTimelineExactlyOnce() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 25))
        var query = TimelineQuery()
        query.limit = 10
        var seen: [String] = []
        var pages = 0
        while true {
            let page = try store.timeline(query)
            seen += page.items.map(\.item.id)
            pages += 1
            guard let next = page.nextCursor else { break }
            query.cursor = TimelineCursor(token: next.description)
            XCTAssertEqual(query.cursor, next, "cursor tokens round-trip")
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(seen, (0..<25).map(String.init))

        XCTAssertEqual(
            try timelineIDs {
                $0.limit = 10; $0.page = 2
            }, (20..<25).map { "a:\($0)" })
        XCTAssertNil(TimelineCursor(token: "garbage"))
    }

    /// A page of positions is the page of items without the rows: the same numbers, places
    /// and next cursor, whatever the order, filter or paging.
    func testPositionsAreTheTimelinesPagesWithoutTheRows() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 17))
        try ingest(ItemFactory.synthetic(provider: "b", section: "新", count: 9, startingAt: 3))
        try ingest([ItemFactory.item(provider: "b", id: "话题/7?x=+", minutesAgo: 2)])
        try store.markRead(refs: [XCTUnwrap(store.item(provider: "a", id: "4")).ref])
        let shapes: [(String, (inout TimelineQuery) -> Void)] = [
            ("newest first", { _ in }),
            ("oldest first", { $0.oldestFirst = true }),
            ("by number", { $0.byNumber = true }),
            (
                "by number, oldest first",
                {
                    $0.byNumber = true; $0.oldestFirst = true
                }
            ),
            (
                "two providers, unread",
                {
                    $0.providers = ["a", "b"]; $0.unreadOnly = true
                }
            ),
            ("one section", { $0.sections = ["新"] }),
            ("page 2", { $0.page = 2 }),
        ]
        for (name, configure) in shapes {
            var query = TimelineQuery()
            query.limit = 4
            configure(&query)
            var walked = 0
            while walked < 20 {
                let page = try store.timeline(query)
                let positions = try store.positions(query)
                XCTAssertEqual(positions.positions.map(\.ref), page.items.map(\.ref), name)
                XCTAssertEqual(positions.positions.map(\.cursor), page.items.map(TimelineCursor.init(after:)), name)
                XCTAssertEqual(positions.positions.map(\.published), page.items.map(\.item.published), name)
                XCTAssertEqual(positions.nextCursor, page.nextCursor, name)
                walked += 1
                guard let next = page.nextCursor else { break }
                query.cursor = next
            }
            // Item-number order pages by number, not cursor: one page each.
            XCTAssertGreaterThan(walked, query.byNumber || name == "page 2" || name == "one section" ? 0 : 1, name)
        }
        var everything = TimelineQuery()
        everything.limit = 100
        XCTAssertEqual(try store.positions(everything).positions.count, 27)
        XCTAssertNil(try store.positions(everything).nextCursor)
        everything.limit = 0
        XCTAssertEqual(try store.positions(everything).positions, [])
    }

    /// "Stored since" (a reader app's `ot`) selects by when items arrived and still lists
    /// them in publication order, page after page, however few arrived.
    func testStoredSinceListsWhatArrivedSinceInPublicationOrder() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 30), now: ItemFactory.epoch)
        let later = ItemFactory.epoch.addingTimeInterval(3_600)
        // Arrived later, published across the older items' span (one of them long before).
        try store.ingest(
            [
                ItemFactory.item(provider: "b", id: "x", minutesAgo: 3), ItemFactory.item(provider: "b", id: "y", minutesAgo: 60 * 24 * 40),
                ItemFactory.item(provider: "b", id: "z", minutesAgo: 9),
            ], section: section("b", "hot"), now: later)
        var query = TimelineQuery()
        query.providers = ["a", "b"]
        query.storedSince = later
        query.limit = 2
        var seen: [String] = []
        while true {
            let page = try store.timeline(query)
            XCTAssertEqual(try store.positions(query).positions.map(\.ref), page.items.map(\.ref))
            XCTAssertEqual(try store.refs(query), page.items.map(\.ref))
            seen += page.items.map(\.item.id)
            guard let next = page.nextCursor else { break }
            query.cursor = next
        }
        XCTAssertEqual(seen, ["x", "z", "y"])
        query.cursor = nil
        query.limit = 100
        query.oldestFirst = true
        XCTAssertEqual(try store.timeline(query).items.map(\.item.id), ["y", "z", "x"])
        query.storedSince = ItemFactory.epoch
        XCTAssertEqual(try store.timeline(query).items.count, 33, "everything was stored since the first moment")
        query.storedSince = later.addingTimeInterval(1)
        XCTAssertEqual(try store.positions(query).positions, [])
    }

    func testCursorStaysStableWhenNewItemsArrive() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 6))
        var query = TimelineQuery()
        query.limit = 3
        let first = try store.timeline(query)
        try ingest([ItemFactory.item(provider: "a", id: "newest", minutesAgo: -5)])
        query.cursor = first.nextCursor
        XCTAssertEqual(try store.timeline(query).items.map(\.item.id), ["3", "4", "5"])
    }

    func testMarkAllReadPerProvider() throws {
        try ingest(ItemFactory.synthetic(provider: "a", count: 3))
        try ingest(ItemFactory.synthetic(provider: "b", count: 2))
        XCTAssertEqual(try store.markAllRead(providers: ["a"]), 3)
        XCTAssertEqual(try store.itemCounts()["b"]?.unread, 2)
        XCTAssertEqual(try store.markAllRead(), 2)
        let ref = try XCTUnwrap(store.item(provider: "a", id: "0")).ref
        XCTAssertEqual(try store.markRead(refs: [ref, 999_999], read: false), 1)
        XCTAssertEqual(try store.itemCounts()["a"]?.unread, 1)
    }

    /// The cursor's own base64url is RFC 4648's, byte for byte, at every padding length.
    func testCursorTokensAreBase64URLWithoutPadding() throws {
        for (provider, id) in [
            ("p", ""), ("p", "1"), ("gh", "12"), ("v2ex", "123"), ("中文", "話題/7?x=+"), ("a", String(repeating: "ÿ", count: 9)),
        ] {
            let cursor = TimelineCursor(published: 1_795_132_726_000, provider: provider, id: id)
            let expected = Data((provider + "\u{0}" + id).utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(cursor.description, "1795132726000." + expected)
            XCTAssertEqual(TimelineCursor(token: cursor.description), cursor)
        }
    }
}
