import Aggregator
import XCTest

final class UpstreamDateTests: XCTestCase {
    let reference = Date(timeIntervalSince1970: 1_795_219_200)  // 2026-11-21T00:00:00Z

    func iso(_ text: String) -> String? {
        UpstreamDate.parse(text, relativeTo: reference).map(ISOTimestamp.format)
    }

    func testAbsoluteForms() {
        XCTAssertEqual(iso("Sat, 21 Nov 2026 04:31:13 GMT"), "2026-11-21T04:31:13Z")
        XCTAssertEqual(iso("Sat, 21 Nov 2026 04:31:13 +0800"), "2026-11-20T20:31:13Z")
        XCTAssertEqual(iso("21 Nov 2026 04:31 PST"), "2026-11-21T12:31:00Z")
        XCTAssertEqual(iso("Mon, 06 Sep 99 16:45:00 EDT"), "1999-09-06T20:45:00Z", "two-digit years")
        XCTAssertEqual(iso("Tue, 10 Jun 2003 04:00:00 -0000"), "2003-06-10T04:00:00Z")
        XCTAssertEqual(iso("2026-11-21T04:31:13Z"), "2026-11-21T04:31:13Z")
        XCTAssertEqual(iso("2026-11-21T04:31:13.987+08:00"), "2026-11-20T20:31:13Z")
        XCTAssertEqual(iso("2021-11-18T17:12:38+08:00"), "2021-11-18T09:12:38Z")
        XCTAssertEqual(iso("2023-05-16 10:21:36 +08:00"), "2023-05-16T02:21:36Z", "V2EX's title attribute")
        XCTAssertEqual(iso("2024-03-08T10:15:00+0100"), "2024-03-08T09:15:00Z")
        XCTAssertEqual(iso("2026-11-01"), "2026-11-01T00:00:00Z")
        XCTAssertEqual(iso("2000-02-29T12:00:00Z"), "2000-02-29T12:00:00Z")
        XCTAssertEqual(iso("1561712368"), "2019-06-28T08:59:28Z")
        XCTAssertEqual(iso("1561712368000"), "2019-06-28T08:59:28Z")
    }

    func testRelativeForms() {
        XCTAssertEqual(iso("3 分钟前"), "2026-11-20T23:57:00Z")
        XCTAssertEqual(iso("2 小时 5 分钟前"), "2026-11-20T21:55:00Z")
        XCTAssertEqual(iso("2小时5分钟前"), "2026-11-20T21:55:00Z")
        XCTAssertEqual(iso("几秒前"), "2026-11-21T00:00:00Z")
        XCTAssertEqual(iso("刚刚"), "2026-11-21T00:00:00Z")
        XCTAssertEqual(iso("昨天"), "2026-11-20T00:00:00Z")
        XCTAssertEqual(iso("4 天前"), "2026-11-17T00:00:00Z")
        XCTAssertEqual(iso("5 days ago"), "2026-11-16T00:00:00Z")
        XCTAssertEqual(iso("an hour ago"), "2026-11-20T23:00:00Z")
        XCTAssertEqual(iso("yesterday"), "2026-11-20T00:00:00Z")
    }

    func testNonDatesAreNil() {
        for text in [
            "", "soon", "13 Foo 2020 10:00 GMT", "2026-13-01", "2026-11-21T25:00Z", "12345", "3 parsecs ago",
            "Sat, 21 Nov 2026 04:31:13 XYZ",
        ] {
            XCTAssertNil(UpstreamDate.parse(text, relativeTo: reference), text)
        }
    }
}
