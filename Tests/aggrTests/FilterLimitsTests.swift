import Aggregator
import AggregatorTestSupport
import XCTest

/// Filters that are huge, deeply nested or carry catastrophic patterns end in a clear error
/// or a fast answer: never a crash, an SQLite limit or a stalled timeline.
final class FilterLimitsTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        directory.write("providers.json", #"{"providers": []}"#)
        let titles = ["ordinary swift news", String(repeating: "a", count: 100) + "!", "blocked word7 inside"]
        let lines = titles.enumerated().map { index, title in
            #"{"provider":"forum","section":"hot","id":"\#(index)","kind":"topic","title":"\#(title)","url":"https://forum.example/t/\#(index)","published":"2026-11-0\#(index + 1)T00:00:00Z"}"#
        }
        let imported = try aggr("import", "-", input: lines.joined(separator: "\n"))
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    func titles(_ arguments: String...) throws -> [String] {
        let result = try runner.run(["timeline", "--format", "tsv"] + arguments, in: directory.path, timeout: 30)
        XCTAssertFalse(result.timedOut, "aggr timeline \(arguments) hung")
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[6]) }.sorted()
    }

    func testDeepNestingIsAFilterErrorNotACrash() throws {
        let deep = String(repeating: "(", count: 20_000) + #"title ~ "a""# + String(repeating: ")", count: 20_000)
        let result = try runner.run(["timeline", "--where", deep], in: directory.path)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("filter nested deeper than 32 levels of not and parentheses (column 33)"), result.stderr)
        XCTAssertLessThan(result.stderr.count, 600, "a long filter is shown as the window around the fault")

        let nots = String(repeating: "not ", count: 20_000) + "unread"
        XCTAssertEqual(try runner.run(["timeline", "--where", nots], in: directory.path).status, 64)

        // The same text in a config view breaks no command but says where it is.
        let escaped = deep.replacingOccurrences(of: "\"", with: "\\\"")
        directory.write("providers.json", #"{"providers": [], "views": {"deep": "\#(escaped)"}}"#)
        let providers = try aggr("providers")
        XCTAssertEqual(providers.status, 78, providers.stderr)
        XCTAssertTrue(providers.stderr.contains("views.deep"), providers.stderr)
        XCTAssertTrue(providers.stderr.contains("nested deeper than 32"), providers.stderr)
    }

    func testLongChainsAndNestedNotsRunInSQLite() throws {
        let blocklist = (0..<300).map { #"title ~ "word\#($0)""# }.joined(separator: " or ")
        directory.write(
            "providers.json", #"{"providers": [], "timeline": {"exclude": "\#(blocklist.replacingOccurrences(of: "\"", with: "\\\""))"}}"#)
        XCTAssertEqual(try titles().count, 2, "the item naming word7 is hidden by the 300-term blocklist")
        XCTAssertEqual(try titles("--all").count, 3)
        let twentyNots = String(repeating: "not ", count: 20) + #"title ~ "swift""#
        XCTAssertEqual(try titles("--all", "--where", twentyNots), ["ordinary swift news"], "an even number of nots cancels out")
        let nested = String(repeating: "(not ", count: 16) + #"title ~ "swift""# + String(repeating: ")", count: 16)
        XCTAssertEqual(try titles("--all", "--where", nested), ["ordinary swift news"])
        let many = (0..<999).map { #"(title ~ "x\#($0)" and replies > \#($0))"# }.joined(separator: " or ")
        XCTAssertEqual(try titles("--all", "--where", "not (\(many))").count, 3)
    }

    func testCatastrophicPatternsAnswerAtOnce() throws {
        XCTAssertEqual(try titles("--where", #"title ~ "(a+)+$""#), [])
        XCTAssertEqual(try titles("--where", #"title ~ "^(a|aa)+!$""#), [String(repeating: "a", count: 100) + "!"])
        directory.write("providers.json", #"{"providers": [], "views": {"slow": "title !~ \"(a+)+$\" and title ~* \"(x+x+)+y|SWIFT\""}}"#)
        XCTAssertEqual(try titles("slow"), ["ordinary swift news"])
        let refused = try runner.run(["timeline", "--where", #"title ~ /(a)\1/"#], in: directory.path)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("back-references are not supported"), refused.stderr)
    }

    /// Found by fuzzing: numbers and durations past what 64-bit integers hold trapped.
    func testHugeNumbersAndDurationsAreAnswered() throws {
        XCTAssertEqual(try titles("--where", "replies > 1e300 or replies = 77777777777777777777777777"), [])
        XCTAssertEqual(try titles("--where", "age < 9999999999d").count, 3)
        let overflow = try runner.run(["timeline", "--where", "age < 99999999999999999d"], in: directory.path)
        XCTAssertEqual(overflow.status, 64, "a duration past 64-bit seconds is no duration")
        let typo = try runner.run(["timeline", "--where", "title 777777777777777777777777777777 ~ \"a\""], in: directory.path)
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.stderr.contains("found the number 7.777777777777778e+29"), typo.stderr)
    }
}
