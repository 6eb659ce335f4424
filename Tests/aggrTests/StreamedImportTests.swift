import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr import` reads its input a piece at a time: a bad line after many batches still
/// stores nothing, and absurd lines or config files are refused rather than buffered.
final class StreamedImportTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        directory.write("providers.json", #"{"providers": []}"#)
    }

    func line(_ index: Int, title: String = "Item") -> String {
        #"{"provider":"bulk","section":"s\#(index % 7)","id":"\#(index)","kind":"post","title":"\#(title) \#(index)","url":"https://bulk.example/\#(index)","published":"2026-11-01T00:00:00Z"}"#
    }

    func testABadLineAfterSeveralBatchesStoresNothing() throws {
        let good = (1...5_000).map { line($0) }.joined(separator: "\n")
        directory.write("items.ndjson", good + "\n" + #"{"provider":"bulk","section":"s","id":"x","kind":"nope"}"# + "\n")
        let result = try aggr("import", "items.ndjson")
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.hasPrefix("aggr: items.ndjson: line 5001: kind: unknown kind \"nope\""), result.stderr)
        XCTAssertEqual(try aggr("timeline").stderr, "nothing stored yet: run `aggr refresh`\n")

        directory.write("items.ndjson", good + "\n")
        let imported = try aggr("import", "items.ndjson")
        XCTAssertEqual(imported.stderr, "imported 5000 items: 5000 new, 0 updated, 0 unchanged, 0 previously removed\n")
        let again = try aggr("import", "-", input: good + "\n" + line(5_001))
        XCTAssertEqual(again.stderr, "imported 5001 items: 1 new, 0 updated, 5000 unchanged, 0 previously removed\n")
        XCTAssertEqual(try aggr("search", "Item", "--format", "tsv", "--limit", "5").stdout.split(separator: "\n").count, 6)
    }

    func testOverlongLinesAndConfigFilesAreRefused() throws {
        let huge = line(1, title: String(repeating: "x", count: 17 << 20))
        directory.write("huge.ndjson", line(0) + "\n" + huge + "\n")
        let result = try aggr("import", "huge.ndjson")
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stderr, "aggr: huge.ndjson: line 2: longer than 16 MiB; one item per line is expected\n")

        let pattern = String(repeating: "a", count: 5 << 20)
        directory.write("providers.json", #"{"providers": [], "views": {"x": "title ~ '\#(pattern)'"}}"#)
        let config = try aggr("providers")
        XCTAssertEqual(config.status, 78)
        XCTAssertEqual(config.stderr, "aggr: providers.json: is 5 MiB; a config file over 4 MiB is refused (is this the right file?)\n")
    }
}
