import XCTest

@testable import Aggregator

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

    /// RFC 822 dates in ASCII are read by bytes; every answer is the character-by-character
    /// reading's, for well-formed dates and for every way one can be bent.
    func testTheByteReadingOfRFC822AgreesWithTheCharacterReading() {
        let weekdays = ["", "Wed, ", "wednesday ", "Xy, ", "W3d, ", ", ,"]
        let days = ["02", "2", "+2", "-1", "32", "99999999999999999999", "a", "0"]
        let months = ["Oct", "oct", "OCTOBER", "Oc", "Foo", "dec,"]
        let years = ["2002", "02", "49", "50", "0", "10000", "-1", "+2002"]
        let times = ["13:00:00", "13:00", "13", "13:xx:00", "25:61:61", "1:2:3:4", "::", "23:59:60"]
        let zones = ["", " GMT", " gmt", " +0800", " -05:30", " +8", " EST", " XYZ", " Z", " +0800 extra", ",IST", "  "]
        var checked = 0
        var dates = 0
        for weekday in weekdays {
            for day in days {
                for month in months {
                    for year in years {
                        for time in times {
                            for zone in zones {
                                let text = "\(weekday)\(day) \(month) \(year) \(time)\(zone)"
                                let bytes = UpstreamDate.rfc822(ascii: Array(text.utf8))
                                XCTAssertEqual(bytes, UpstreamDate.rfc822(characters: text), text)
                                checked += 1
                                if bytes != nil { dates += 1 }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(checked, 6 * 8 * 6 * 8 * 8 * 12)
        XCTAssertGreaterThan(dates, 10_000, "well-formed dates are among them")
        XCTAssertEqual(iso("Wed, 02 Oct 2002 13:00:00 GMT"), "2002-10-02T13:00:00Z")
        XCTAssertEqual(iso("Wed, 02 Oct 2002 13:00:00 +0800"), "2002-10-02T05:00:00Z")
        XCTAssertEqual(iso("Mié, 02 Oct 2002 13:00:00 GMT"), "2002-10-02T13:00:00Z", "not ASCII: read by characters")
    }
}
