import Aggregator
import XCTest

final class TimeSpanTests: XCTestCase {
    func testParsesUnitsAndCombinations() {
        XCTAssertEqual(TimeSpan(parsing: "90s")?.seconds, 90)
        XCTAssertEqual(TimeSpan(parsing: "30m")?.seconds, 1_800)
        XCTAssertEqual(TimeSpan(parsing: "1h30m")?.seconds, 5_400)
        XCTAssertEqual(TimeSpan(parsing: "2d")?.seconds, 172_800)
        XCTAssertEqual(TimeSpan(parsing: "1w")?.seconds, 604_800)
    }

    func testRejectsMalformedText() {
        for text in ["", "5", "5x", "m", "1h30", "-5m", "1.5h", "99999999999999999999w"] {
            XCTAssertNil(TimeSpan(parsing: text), text)
        }
    }

    func testPrintsShortestExactForm() {
        XCTAssertEqual(TimeSpan(seconds: 5_400).description, "1h30m")
        XCTAssertEqual(TimeSpan(seconds: 86_400 * 8).description, "1w1d")
        XCTAssertEqual(TimeSpan(seconds: 0).description, "0s")
    }
}
