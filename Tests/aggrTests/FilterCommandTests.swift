import Aggregator
import AggregatorTestSupport
import XCTest

final class FilterCommandTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "sections": ["hot"], "exclude": "title ~* \\"click me\\""},
              {"id": "github", "type": "github", "sections": ["trending"], "include": "stars > 1000"}
            ],
             "timeline": {"exclude": "provider = dribbble"},
             "views": {"releases": "kind = release", "cjk": "title contains \\"聚合器\\" or summary contains \\"方舟\\""}}
            """)
        XCTAssertEqual(try aggr("import", "-", input: try fixture("timeline.ndjson")).status, 0)
    }

    func ids(_ arguments: String...) throws -> [String] {
        let result = try runner.run(["timeline", "--format", "tsv", "--no-dedupe"] + arguments, in: directory.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").dropFirst().map {
            String($0.split(separator: "\t")[1]) + ":" + String($0.split(separator: "\t")[3])
        }
    }

    func testConfigFiltersHideAndAllShows() throws {
        XCTAssertEqual(
            try ids(),
            [
                "v2ex:1147555", "github:groue/GRDB.swift", "feed:tag:github.com,2008:Repository/44838949/swift-6.3.1-RELEASE",
                "gitee:openharmony/arkui",
            ],
            "hostile v2ex title excluded, github release without stars not included, dribbble excluded globally")
        XCTAssertEqual(try ids("--all").count, 7, "filters hide, never delete")
    }

    func testViewsWhereAndTheirErrors() throws {
        XCTAssertEqual(try ids("releases", "--all"), ["github:rel-6.3.1"])
        XCTAssertEqual(try ids("cjk"), ["v2ex:1147555", "gitee:openharmony/arkui"])
        XCTAssertEqual(try ids("--where", "replies > 10 or stars > 5000"), ["v2ex:1147555", "github:groue/GRDB.swift"])
        let unknown = try aggr("timeline", "relases")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stderr, "aggr: no view \"relases\" (did you mean \"releases\"?); views: releases, cjk\n")
        let bad = try aggr("timeline", "--where", "stars ~ 3")
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(
            bad.stderr,
            "aggr: --where: operator ~ does not apply to stars, which is a number (use =, !=, <, <=, >, >=, in) (column 7)\n  stars ~ 3\n        ^\n"
        )
    }

    /// `aggr filter save`: a view in providers.json on a SQLite file, the user's own on a
    /// database with users; the name and the filter are checked before anything is kept.
    func testAFilterSavedAsAViewIsInTheConfigOrTheUsersOwn() throws {
        let saved = try aggr("filter", "save", "popular", "replies > 10 or stars > 5000")
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(try ids("popular"), ["v2ex:1147555", "github:groue/GRDB.swift"])
        let config = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        if onPostgres {
            XCTAssertTrue(saved.stderr.hasPrefix("saved view popular for "), saved.stderr)
            XCTAssertFalse(config.contains("popular"), "the user's own, not everyone's")
        } else {
            XCTAssertTrue(saved.stderr.hasPrefix("saved view popular in "), saved.stderr)
            XCTAssertTrue(config.contains("popular") && config.contains("replies > 10 or stars > 5000"), config)
            XCTAssertTrue(config.contains("releases") && config.contains("cjk"), "the other views are kept")
        }
        let bad = try aggr("filter", "save", "broken", "stars ~ 3")
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("(column 7)\n  stars ~ 3\n        ^\n"), bad.stderr)
        XCTAssertEqual(try aggr("filter", "save", "Bad Name", "kind = post").status, 64)
        let provider = try aggr("filter", "save", "v2ex", "kind = post")
        XCTAssertEqual(provider.status, 64)
        XCTAssertTrue(provider.stderr.contains("names a provider"), provider.stderr)
        XCTAssertEqual(try aggr("filter", "save", "popular").status, 64, "a filter or --remove")
        XCTAssertEqual(try aggr("timeline", "broken").status, 64, "nothing kept of a refused save")

        let removed = try aggr("filter", "save", "popular", "--remove")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try aggr("timeline", "popular").status, 64)
        XCTAssertEqual(try ids("releases", "--all"), ["github:rel-6.3.1"], "the config's views stay")
    }

    func testBrokenFilterInConfigIsAConfigError() throws {
        directory.write("providers.json", #"{"providers": [], "views": {"x": "kind = "}}"#)
        let result = try aggr("timeline")
        XCTAssertEqual(result.status, 78)
        XCTAssertTrue(
            result.stderr.hasPrefix("aggr: providers.json: views.x: kind = needs a string in quotes, found the end of the filter"),
            result.stderr)
    }

    func testSearchAndFilterTest() throws {
        let search = try aggr("search", "聚合器", "--format", "ndjson")
        XCTAssertEqual(search.stdout.split(separator: "\n").count, 1)
        XCTAssertTrue(search.stdout.contains("\"id\":\"1147555\""))
        let swift = try aggr("search", "swift", "--all")
        XCTAssertTrue(swift.stdout.contains("swift Swift 6.3.1 Release"), swift.stdout)
        XCTAssertTrue(
            swift.stdout.contains("Release\n        swift-ci\n"),
            "the snippet shows the author, the only place besides the title: \(swift.stdout)")
        let sketch = try aggr("search", "sketch", "--all")
        XCTAssertTrue(sketch.stdout.contains("\n        Quick, messy, five minute sketch of"), "the summary's match: \(sketch.stdout)")
        let combined = try aggr("search", "swift", "--all", "--provider", "feed", "--format", "ndjson")
        XCTAssertEqual(combined.stdout.split(separator: "\n").count, 1)
        let none = try aggr("search", "nothing-like-this")
        XCTAssertEqual(none.stderr, "no stored item matches \"nothing-like-this\"\n")

        let test = try aggr("filter", "test", "kind in [release, repo]")
        XCTAssertEqual(test.status, 0, test.stderr)
        XCTAssertTrue(
            test.stdout.hasPrefix(
                "PROVIDER  MATCHING  STORED\ndribbble  0         1\nfeed      0         1\ngitee     1         1\ngithub    2         2\nv2ex      0         2\ntotal     3         7\n"
            ), test.stdout)
        XCTAssertTrue(test.stdout.contains("newest matches:"))
        XCTAssertEqual(try aggr("filter", "test", "kind ~ ").status, 64)
    }
}
