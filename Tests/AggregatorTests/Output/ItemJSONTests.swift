import Aggregator
import AggregatorTestSupport
import XCTest

final class ItemJSONTests: XCTestCase {
    func testContractKeysInOrderWithNullsAndOmittedMetrics() throws {
        let item = ItemFactory.item(id: "1", title: "T", author: nil, metrics: Metrics(replies: 3))
        let line = ItemJSON.line(item)
        XCTAssertEqual(
            line,
            #"{"provider":"forum","section":"hot","id":"1","kind":"topic","title":"T","url":"https://forum.example/t/1","author":null,"published":"2026-11-21T00:00:00Z","updated":null,"summary":"","tags":[],"metrics":{"replies":3},"image":null,"extra":{}}"#
        )
        guard case .object(let members) = try JSONParser.parse(line) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ItemJSON.keys)
    }

    func testReaderRoundTripsTheContract() throws {
        let item = Item(
            provider: "p", section: "s/1", id: "i", kind: .shot, title: "t \u{1B}", url: "https://x.example/",
            author: Author(name: "a", url: "https://x.example/a"), summary: "sum", published: ItemFactory.epoch,
            updated: ItemFactory.epoch.addingTimeInterval(5), tags: ["x"], metrics: Metrics(likes: 2, views: 9),
            image: "https://x.example/i.png", extra: ["k": "v"])
        XCTAssertEqual(try ItemJSONReader.items(ndjson: ItemJSON.line(item) + "\n\n" + ItemJSON.line(item)), [item, item])
    }

    func testReaderNamesLineAndKey() {
        let good = ItemJSON.line(ItemFactory.item(id: "1"))
        let cases: [(String, String)] = [
            (good + "\n{", "line 2: invalid JSON at column 2: expected a member name in double quotes but found end of file"),
            (
                good.replacingOccurrences(of: #""kind":"topic""#, with: #""kind":"thread""#),
                "line 1: kind: unknown kind \"thread\" (valid: topic, reply, release, issue, pull, commit, event, repo, shot, notification, post)"
            ),
            (
                good.replacingOccurrences(of: #""url":"https://forum.example/t/1""#, with: #""url":"javascript:x""#),
                "line 1: url: must be an http or https URL"
            ),
            (
                good.replacingOccurrences(of: #""published":"2026-11-21T00:00:00Z""#, with: #""published":"yesterday""#),
                "line 1: published: not an ISO-8601 date: \"yesterday\""
            ),
            (
                good.replacingOccurrences(of: #""metrics":{}"#, with: #""metrics":{"likes":-1}"#),
                "line 1: metrics.likes: must be a whole number"
            ),
            (good.replacingOccurrences(of: #""title":"Item 1","#, with: ""), "line 1: title: missing"),
            ("[1]", "line 1: must be a JSON object"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try ItemJSONReader.items(ndjson: text), message) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }
}
