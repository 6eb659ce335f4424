import Aggregator
import AggregatorTestSupport
import XCTest

final class SectionSpecTests: XCTestCase {
    let metadata = SampleForumProvider.metadata

    func testParsesEveryArgumentShape() throws {
        XCTAssertEqual(try SectionSpec.parse("hot", for: metadata), SectionSpec(key: "hot", kind: "hot"))
        XCTAssertEqual(
            try SectionSpec.parse("node/swift?pages=3", for: metadata),
            SectionSpec(key: "node/swift?pages=3", kind: "node", arguments: ["swift"], options: ["pages": "3"]))
        XCTAssertEqual(try SectionSpec.parse("releases/swiftlang/swift", for: metadata).arguments, ["swiftlang", "swift"])
        XCTAssertEqual(try SectionSpec.parse("trending", for: metadata).arguments, [])
        XCTAssertEqual(try SectionSpec.parse("trending/rust?since=weekly", for: metadata).options, ["since": "weekly"])
        XCTAssertEqual(try SectionSpec.parse("trending?since=daily", for: metadata).arguments, [])
        let url = try SectionSpec.parse("url/https://example.com/feed?format=rss&x=1", for: metadata)
        XCTAssertEqual(url.argument, "https://example.com/feed?format=rss&x=1")
        XCTAssertEqual(url.options, [:])
    }

    func testErrorsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("nod/swift", "unknown section kind \"nod\" for type forum (did you mean \"node\"?)"),
            (
                "zzzzzz",
                "unknown section kind \"zzzzzz\" for type forum (valid kinds: hot, latest, node, releases, trending, url, notifications)"
            ),
            ("node", "section kind \"node\" needs an argument: node/<name>"),
            ("hot/x", "section kind \"hot\" takes no argument (write \"hot\")"),
            ("releases/swiftlang", "section kind \"releases\" needs 2 arguments: releases/<owner>/<repo>"),
            ("releases/a//b", "section kind \"releases\" needs 2 arguments: releases/<owner>/<repo>"),
            ("trending/a/b", "section kind \"trending\" takes at most one argument: trending[/<language>]"),
            ("trending?sine=daily", "unknown option \"sine\" for section kind \"trending\" (did you mean \"since\"?)"),
            ("trending?since=yearly", "option \"since\" must be one of daily, weekly, monthly (got \"yearly\")"),
            ("node/a?pages=0", "option \"pages\" must be a whole number from 1 to 10 (got \"0\")"),
            ("hot?x=1", "unknown option \"x\" for section kind \"hot\" (it takes no options)"),
            ("url", "section kind \"url\" needs a feed url: url/<feed url>"),
            ("", "empty section; write a kind such as \"hot\""),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try SectionSpec.parse(text, for: metadata), text) { error in
                XCTAssertEqual((error as? SectionSpecError)?.message, message, text)
            }
        }
    }

    func testDecodesPercentEscapesInOptions() throws {
        let spec = try SectionSpec.parse("trending/c%2B%2B?since=weekly", for: metadata)
        XCTAssertEqual(spec.arguments, ["c%2B%2B"], "arguments stay as written; providers encode them for their URLs")
        XCTAssertEqual(spec.options["since"], "weekly")
    }
}
