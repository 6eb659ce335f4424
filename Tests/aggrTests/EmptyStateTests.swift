import AggregatorTestSupport
import XCTest

final class EmptyStateTests: EndToEndTestCase {
    func testEveryListingWorksOnAnEmptyDatabase() throws {
        directory.write("providers.json", #"{"providers": []}"#)
        let timeline = try aggr("timeline")
        XCTAssertEqual(timeline.status, 0)
        XCTAssertEqual(timeline.stdout, "")
        XCTAssertEqual(timeline.stderr, "nothing stored yet: run `aggr refresh`\n")

        let json = try aggr("timeline", "--format", "json")
        XCTAssertEqual(json.stdout, "[]\n")

        let providers = try aggr("providers")
        XCTAssertEqual(providers.status, 0)
        XCTAssertEqual(providers.stdout, "ID  TYPE  SECTIONS  ITEMS  UNREAD  LAST FETCH  STATUS\n")

        let types = try aggr("types")
        XCTAssertEqual(types.status, 0)
        XCTAssertFalse(types.stdout.isEmpty)

        XCTAssertEqual(try aggr().stderr, "nothing stored yet: run `aggr refresh`\n", "timeline is the default command")
    }

    func testBrokenConfigGivesOnePreciseErrorAndExit78() throws {
        directory.write(
            "providers.json", "{\n  \"providers\": [\n    { \"id\": \"x\", \"type\": \"nosuchtype\", \"sections\": [\"hot\"] }\n  ]\n}\n")
        let result = try aggr("providers")
        XCTAssertEqual(result.status, 78)
        XCTAssertTrue(result.stderr.hasPrefix("aggr: providers.json: providers[0].type: unknown type \"nosuchtype\""), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)

        directory.write("providers.json", "{\n  \"providers\": [,]\n}")
        let syntax = try aggr("timeline")
        XCTAssertEqual(syntax.status, 78)
        XCTAssertEqual(syntax.stderr, "aggr: providers.json: line 2, column 17: invalid JSON: expected a value but found ','\n")
    }

    func testMissingConfigSaysWhereItLooked() throws {
        let result = try aggr("providers")
        XCTAssertEqual(result.status, 78)
        XCTAssertEqual(
            result.stderr,
            "aggr: providers.json: not found (looked in \(directory.path)/providers.json, \(directory.path)/config/aggr/providers.json); run `aggr init` to create one\n"
        )
        let explicit = try aggr("providers", "--config", "/nonexistent.json")
        XCTAssertEqual(explicit.stderr, "aggr: /nonexistent.json: does not exist (run `aggr init` to create a starter config)\n")
    }

    func testInitWritesAStarterConfigAndNeverOverwrites() throws {
        let first = try aggr("init")
        XCTAssertEqual(first.status, 0)
        let path = directory.file("config/aggr/providers.json")
        XCTAssertEqual(first.stdout, "created \(path)\n")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        try "{\"providers\": []}".write(toFile: path, atomically: true, encoding: .utf8)
        let second = try aggr("init")
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(second.stderr, "\(path) already exists; left unchanged\n")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\"providers\": []}")
        XCTAssertFalse(written.isEmpty)
        XCTAssertEqual(try aggr("providers").status, 0, "the starter config is valid")
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try aggr("timeline", "--limit", "0").status, 64)
        let kind = try aggr("timeline", "--kind", "thread")
        XCTAssertEqual(kind.status, 64)
        XCTAssertTrue(kind.stderr.contains("--kind: unknown kind \"thread\""), kind.stderr)
        let since = try aggr("timeline", "--since", "last week")
        XCTAssertEqual(since.stderr, "aggr: --since: \"last week\" is neither a duration (24h, 7d) nor a date (2026-11-01)\n")
        XCTAssertEqual(try aggr("show", "404").status, 1)
        XCTAssertEqual(try aggr("read").status, 64)
    }

    func testUnusableDatabaseIsAClearError() throws {
        directory.write("bad.sqlite", String(repeating: "garbage ", count: 300))
        let result = try aggr("timeline", "--db", directory.file("bad.sqlite"))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "aggr: database \(directory.file("bad.sqlite")): not an aggr database (the file is not SQLite)\n")
    }
}
