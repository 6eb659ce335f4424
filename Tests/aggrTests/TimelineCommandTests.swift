import Aggregator
import AggregatorTestSupport
import XCTest

final class TimelineCommandTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        directory.write("providers.json", #"{"providers": [], "timeline": {"limit": 5}}"#)
        let imported = try aggr("import", "-", input: try fixture("timeline.ndjson"))
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stderr, "imported 7 items: 7 new, 0 updated, 0 unchanged, 0 previously removed\n")
    }

    func testTextTimelineMatchesGolden() throws {
        let result = try aggr("timeline", "--limit", "10")
        XCTAssertEqual(result.status, 0)
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no escape sequence reaches the terminal")
        try assertGolden(result.stdout, "timeline.txt")
    }

    func testJSONTimelineMatchesTheContract() throws {
        let result = try aggr("timeline", "--format", "json", "--limit", "10")
        try assertGolden(result.stdout, "timeline.json")
        guard case .array(let items) = try JSONParser.parse(result.stdout) else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, 6, "the feed copy of the GitHub release is deduplicated")
        for case .object(let members) in items {
            XCTAssertEqual(members.map(\.key), ItemJSON.storedKeys)
        }
        let ndjson = try aggr("timeline", "--format", "ndjson", "--limit", "10")
        XCTAssertEqual(ndjson.stdout.split(separator: "\n").count, 6)
    }

    /// Scripts see the state the reader shows: `read` and `saved` on every item.
    func testMachineFormatsCarryReadAndSavedState() throws {
        XCTAssertEqual(try aggr("read", "v2ex:1147555").status, 0)
        XCTAssertEqual(try aggr("save", "github:groue/GRDB.swift").status, 0)
        var states: [String: (Bool?, Bool?)] = [:]
        for line in try aggr("timeline", "--format", "ndjson", "--limit", "10").stdout.split(separator: "\n") {
            let value = try JSONParser.parse(String(line))
            let key = "\(value["provider"]?.stringValue ?? ""):\(value["id"]?.stringValue ?? "")"
            states[key] = (value["read"]?.boolValue, value["saved"]?.boolValue)
        }
        XCTAssertEqual(states.count, 6)
        for (key, state) in states {
            XCTAssertEqual(state.0, key == "v2ex:1147555", "read of \(key)")
            XCTAssertEqual(state.1, key == "github:groue/GRDB.swift", "saved of \(key)")
        }
        let json = try aggr("search", "GRDB", "--format", "json")
        XCTAssertTrue(json.stdout.contains(#""read":false,"saved":true}"#), json.stdout)
    }

    func testConfigLimitPagingAndCursor() throws {
        let first = try aggr("timeline", "--format", "tsv")
        XCTAssertEqual(first.stdout.split(separator: "\n").count, 6, "header plus timeline.limit = 5 rows")
        let text = try aggr("timeline")
        let hint = try XCTUnwrap(text.stderr.split(separator: "\n").first { $0.hasPrefix("more: aggr timeline --cursor ") })
        let cursor = String(hint.dropFirst("more: aggr timeline --cursor ".count))
        let next = try aggr("timeline", "--cursor", cursor, "--format", "ndjson")
        XCTAssertEqual(next.stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(try aggr("timeline", "--page", "2", "--format", "ndjson").stdout, next.stdout)
        XCTAssertEqual(try aggr("timeline", "--cursor", "nonsense").status, 64)
    }

    func testFilters() throws {
        func ids(_ arguments: String...) throws -> [String] {
            let result = try runner.run(["timeline", "--format", "tsv"] + arguments, in: directory.path)
            return result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[3]) }
        }
        XCTAssertEqual(try ids("--provider", "github"), ["groue/GRDB.swift", "rel-6.3.1"])
        XCTAssertEqual(try ids("-p", "gitee,dribbble"), ["openharmony/arkui", "471756"])
        XCTAssertEqual(try ids("--kind", "shot"), ["471756"])
        XCTAssertEqual(try ids("--section", "hot"), ["1147555", "1147001"])
        XCTAssertEqual(try ids("--since", "16h"), ["1147555", "1147001", "groue/GRDB.swift"])
        XCTAssertEqual(try ids("--since", "2026-11-19", "--provider", "github"), ["groue/GRDB.swift", "rel-6.3.1"])
        XCTAssertEqual(try aggr("timeline", "--provider", "nobody").stderr, "no items match\n")
    }

    func testReadShowAndPrune() throws {
        let show = try aggr("show", "v2ex:1147555")
        XCTAssertEqual(show.status, 0)
        try assertGolden(show.stdout, "show.txt")
        XCTAssertEqual(try aggr("show", "1", "--format", "json").stdout.hasPrefix("[\n{\"provider\":\"v2ex\""), true)

        XCTAssertEqual(try aggr("read", "1", "v2ex:1147001").stderr, "marked 2 items read\n")
        XCTAssertEqual(try aggr("timeline", "--unread", "--format", "ndjson").stdout.split(separator: "\n").count, 4)
        XCTAssertEqual(try aggr("read", "1", "--unread").stderr, "marked 1 item unread\n")
        XCTAssertEqual(try aggr("read", "--all", "--provider", "github").stderr, "marked 2 items read\n")

        let prune = try aggr("prune", "--max-items", "1")
        XCTAssertEqual(prune.stderr, "removed 2 items (0 by age, 2 over the per-provider limit, 0 of removed providers)\n")
        let orphans = try aggr("prune", "--orphans")
        XCTAssertEqual(orphans.stderr, "removed 5 items (0 by age, 0 over the per-provider limit, 5 of removed providers)\n")
        let reimport = try aggr("import", "-", input: try fixture("timeline.ndjson"))
        XCTAssertEqual(
            reimport.stderr, "imported 7 items: 0 new, 0 updated, 0 unchanged, 7 previously removed\n", "removed items stay removed")
    }

    func testBadImportStoresNothing() throws {
        let bad = try fixture("timeline.ndjson") + "{\"provider\": \"x\"}\n"
        directory.write("bad.ndjson", bad)
        let result = try aggr("import", "bad.ndjson", "--db", directory.file("other.sqlite"))
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stderr, "aggr: bad.ndjson: line 8: kind: missing\n")
        XCTAssertEqual(try aggr("timeline", "--db", directory.file("other.sqlite")).stderr, "nothing stored yet: run `aggr refresh`\n")
    }
}
