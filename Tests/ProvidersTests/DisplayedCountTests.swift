import XCTest

@testable import Providers

final class DisplayedCountTests: XCTestCase {
    func testCountsAsPagesPrintThem() {
        let cases: [(String, Int?)] = [
            ("28016", 28016), ("1,024", 1024), (" 2,871 ", 2871), ("4.6K", 4600), ("1.2k", 1200), ("2.8W", 28000), ("2.8万", 28000),
            ("4W", 40000), ("", nil), ("stars", nil), ("K", nil),
        ]
        for (text, count) in cases {
            XCTAssertEqual(DisplayedCount.parse(text), count, text)
        }
    }

    /// Found by fuzzing the Gitee explore page: a count too large for an Int trapped.
    func testAbsurdCountsAreNoCounts() {
        for text in ["9e99K", "1e300W", "infK", "nanK", "-3K", "99999999999999999999", "922337203685477580.8K"] {
            XCTAssertNil(DisplayedCount.parse(text), text)
        }
    }
}
