import Aggregator
import AggregatorTestSupport
import XCTest

/// Saved (starred) is a state beside read: set and cleared by `aggr save`, listed by
/// `timeline --saved` and the `saved` filter field, and kept by retention.
final class SavedItemsTests: EndToEndTestCase {
    func testSavedItemsAreListedFilteredAndOutliveRetention() throws {
        directory.write("providers.json", #"{"providers": []}"#)
        let lines = (1...5).map { index in
            #"{"provider":"forum","section":"hot","id":"\#(index)","kind":"topic","title":"Topic \#(index)","url":"https://forum.example/t/\#(index)","published":"2026-0\#(index)-01T00:00:00Z"}"#
        }
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n")).status, 0)
        func ids(_ arguments: String...) throws -> [String] {
            let result = try runner.run(["timeline", "--format", "tsv"] + arguments, in: directory.path)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[3]) }
        }
        let save = try aggr("save", "forum:1", "forum:2")
        XCTAssertEqual(save.stderr, "saved 2 items\n")
        XCTAssertEqual(try ids("--saved"), ["2", "1"])
        XCTAssertEqual(try ids("--where", "saved and not unread"), [])
        XCTAssertEqual(try ids("--where", "not saved"), ["5", "4", "3"])
        XCTAssertTrue(try aggr("show", "forum:1").stdout.contains("saved"))

        let prune = try aggr("prune", "--max-items", "1")
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertEqual(try ids(), ["5", "2", "1"], "the newest unsaved item and every saved one are kept")

        XCTAssertEqual(try aggr("save", "--unsave", "forum:2").stderr, "unsaved 1 item\n")
        XCTAssertEqual(try ids("--saved"), ["1"])
        XCTAssertEqual(try aggr("save", "forum:99").status, 1)
    }
}
