import AggregatorTestSupport
import XCTest

@testable import Aggregator

/// The filter language against each store (a store suite: `make test` runs it on PostgreSQL too).
final class FilterSemanticsTests: StoreTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        func item(
            _ provider: String, _ id: String, _ title: String, minutesAgo: Int, kind: ItemKind = .topic, author: String? = "alice",
            tags: [String] = [], metrics: Metrics = Metrics(), extra: [String: String] = [:]
        ) -> Item {
            var value = ItemFactory.item(
                provider: provider, id: id, title: title, minutesAgo: minutesAgo, kind: kind, author: author, tags: tags, metrics: metrics)
            value.extra = extra
            return value
        }
        try store.ingest(
            [
                item("v2ex", "1", "Swift 并发问题", minutesAgo: 10, metrics: Metrics(replies: 12), extra: ["node": "swift"]),
                item("v2ex", "2", "Nightly build broken", minutesAgo: 60 * 30, author: nil, metrics: Metrics(replies: 2)),
                item("v2ex", "3", "x' OR 1=1 --", minutesAgo: 5),
            ], section: Section(provider: "v2ex", key: "hot", title: "V2EX › Hot"), now: ItemFactory.epoch)
        try store.ingest(
            [
                item(
                    "github", "r1", "swift 6.3 release", minutesAgo: 120, kind: .release, author: "bot", tags: ["Release", "stable"],
                    metrics: Metrics(stars: 7_000), extra: ["repo": "swiftlang/swift", "language": "C++"]),
                item("github", "r2", "swift nightly 2026-11-20", minutesAgo: 200, kind: .release, tags: ["prerelease"]),
            ], section: Section(provider: "github", key: "releases/swiftlang/swift", title: "GitHub"), now: ItemFactory.epoch)
        try store.markRead(refs: [XCTUnwrap(store.item(provider: "v2ex", id: "2")).ref], read: true, now: ItemFactory.epoch)
    }

    func ids(_ filter: String) throws -> [String] {
        var query = TimelineQuery()
        query.limit = 100
        query.now = ItemFactory.epoch
        query.filters = [try FilterParser.parse(filter)]
        return try store.timeline(query).items.map { "\($0.item.provider):\($0.item.id)" }.sorted()
    }

    func testOperatorsMatchWhatTheyMean() throws {
        XCTAssertEqual(try ids(#"title ~ "swift""#), ["github:r1", "github:r2"], "~ is case-sensitive")
        XCTAssertEqual(try ids(#"title ~* "swift""#), ["github:r1", "github:r2", "v2ex:1"])
        XCTAssertEqual(try ids("title ~ /^SWIFT/i"), ["github:r1", "github:r2", "v2ex:1"])
        XCTAssertEqual(try ids(#"title !~* "nightly""#), ["github:r1", "v2ex:1", "v2ex:3"])
        XCTAssertEqual(try ids(#"title contains "并发""#), ["v2ex:1"], "CJK text")
        XCTAssertEqual(try ids(#"author = "alice""#), ["github:r2", "v2ex:1", "v2ex:3"])
        XCTAssertEqual(try ids(#"author != "alice""#), ["github:r1", "v2ex:2"], "!= includes items with no author")
        XCTAssertEqual(try ids("replies > 5"), ["v2ex:1"])
        XCTAssertEqual(try ids("not replies > 5"), ["github:r1", "github:r2", "v2ex:2", "v2ex:3"], "no metric counts as not greater")
        XCTAssertEqual(try ids("stars >= 7000"), ["github:r1"])
        XCTAssertEqual(try ids("kind in [release]"), ["github:r1", "github:r2"])
        XCTAssertEqual(try ids("provider in [v2ex] and kind = topic"), ["v2ex:1", "v2ex:2", "v2ex:3"])
        XCTAssertEqual(try ids(#"tags has "release""#), ["github:r1"], "tag names compare without case")
        XCTAssertEqual(try ids(#"tags contains "rel""#), ["github:r1", "github:r2"])
        XCTAssertEqual(try ids(#"node = "swift""#), ["v2ex:1"])
        XCTAssertEqual(try ids(#"repo = "swiftlang/swift" and language = "C++""#), ["github:r1"])
        XCTAssertEqual(try ids("age < 1h"), ["v2ex:1", "v2ex:3"])
        XCTAssertEqual(try ids("age > 1d"), ["v2ex:2"])
        XCTAssertEqual(try ids("published >= 2026-11-20T22:00:00Z"), ["github:r1", "v2ex:1", "v2ex:3"])
        XCTAssertEqual(try ids("published > 3h"), ["github:r1", "v2ex:1", "v2ex:3"], "a duration against a date means within the last …")
        XCTAssertEqual(try ids("unread"), ["github:r1", "github:r2", "v2ex:1", "v2ex:3"])
        XCTAssertEqual(try ids("unread = false"), ["v2ex:2"])
        XCTAssertEqual(try ids(#"(title ~* "swift" or replies > 1) and not kind = release"#), ["v2ex:1", "v2ex:2"])
    }

    func testFilterTextNeverBecomesSQL() throws {
        XCTAssertEqual(try ids(#"title = "x' OR 1=1 --""#), ["v2ex:3"], "the injection attempt matches its literal title only")
        XCTAssertEqual(try ids(#"title = "x\" OR 1=1 --""#), [])
        if !Self.onPostgres {
            let compiled = FilterSQL.compile(
                try FilterParser.parse(#"title = "'); DROP TABLE item; --" or title ~ "a""#), now: ItemFactory.epoch)
            XCTAssertFalse(compiled.sql.contains("DROP"), compiled.sql)
            XCTAssertEqual(compiled.arguments.count, 2)
        }
        XCTAssertEqual(try ids(#"title = "'); DROP TABLE item; --""#), [])
        XCTAssertEqual(try store.itemCounts().values.reduce(0) { $0 + $1.total }, 5, "the table is intact")
    }

    func testConfigScopesPerProviderAndGlobally() throws {
        let text = """
            {"providers": [
              {"id": "v2ex", "type": "forum", "sections": ["hot"], "exclude": "title ~* \\"nightly\\""},
              {"id": "github", "type": "forum", "sections": ["hot"], "include": "kind = release", "exclude": "tags has \\"prerelease\\""}
            ],
             "timeline": {"exclude": "title contains \\"1=1\\""},
             "views": {"releases": "kind = release"}}
            """
        let configuration = try ConfigLoader(registry: ProviderRegistry([SampleForumProvider.self])).parse(
            bytes: Array(text.utf8), file: "providers.json")
        var query = TimelineQuery()
        query.now = ItemFactory.epoch
        query.hiding = HidingRules(configuration)
        XCTAssertEqual(try store.timeline(query).items.map { "\($0.item.provider):\($0.item.id)" }.sorted(), ["github:r1", "v2ex:1"])
        XCTAssertEqual(configuration.views.first?.filter, try FilterParser.parse("kind = release"))

        XCTAssertThrowsError(
            try ConfigLoader(registry: ProviderRegistry([SampleForumProvider.self])).parse(
                bytes: Array(#"{"providers": [{"id": "a", "type": "forum", "sections": ["hot"], "include": "replies >"}]}"#.utf8),
                file: "providers.json")
        ) { error in
            XCTAssertEqual(
                "\(error)",
                "providers.json: providers[0].include: replies > needs a number, found the end of the filter (column 10)\n  replies >\n           ^"
            )
        }
    }

    func testFilterTestCounts() throws {
        let counts = try store.count(matching: try FilterParser.parse(#"title ~* "swift""#), now: ItemFactory.epoch)
        XCTAssertEqual(
            counts,
            [FilterMatchCount(provider: "github", matching: 2, total: 2), FilterMatchCount(provider: "v2ex", matching: 1, total: 3)])
    }
}
