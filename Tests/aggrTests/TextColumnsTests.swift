import Aggregator
import AggregatorTestSupport
import XCTest

/// The text timeline never cuts a date, a number or its unit.
final class TextColumnsTests: EndToEndTestCase {
    func testOldDatesAndSingularCountsPrintWhole() throws {
        directory.write("providers.json", #"{"providers": []}"#)
        let lines = [
            #"{"provider":"v2ex","section":"hot","id":"1","kind":"topic","title":"Old topic","url":"https://v.example/1","published":"2019-06-29T08:00:00Z","metrics":{"replies":1}}"#,
            #"{"provider":"gh","section":"r","id":"2","kind":"repo","title":"Repo","url":"https://g.example/2","published":"2026-11-20T08:00:00Z","metrics":{"stars":1}}"#,
            #"{"provider":"gh","section":"r","id":"3","kind":"repo","title":"Big repo","url":"https://g.example/3","published":"2026-11-19T08:00:00Z","metrics":{"stars":1234567}}"#,
        ]
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n")).status, 0)
        for columns in ["160", "80"] {
            let result = try runner.run(["timeline"], in: directory.path, extraEnvironment: ["COLUMNS": columns])
            XCTAssertTrue(result.stdout.contains("2019-06-29"), result.stdout)
            XCTAssertTrue(result.stdout.contains("1 reply\n"), result.stdout)
            XCTAssertTrue(result.stdout.contains("1 star\n"), result.stdout)
            XCTAssertTrue(result.stdout.contains("1.2M stars\n"), result.stdout)
            XCTAssertFalse(result.stdout.contains("…"), "nothing here is long enough to cut: \(result.stdout)")
        }
    }
}
