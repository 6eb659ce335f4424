import AggregatorTestSupport
import XCTest

@testable import Aggregator

/// A NUL inside a filter or search words is refused where it is: SQLite and C strings would
/// end the text there and match as if the rest were not written.
final class FilterParserNULTests: XCTestCase {
    func testANULAnywhereInAFilterIsAnErrorAtItsPosition() {
        for (text, position) in [("title ~ 'feed\u{0}zzz'", 13), ("\u{0}", 0), ("replies > 5 and title ~ /a\u{0}/", 26)] {
            XCTAssertThrowsError(try FilterParser.parse(text), text) { error in
                let failure = error as? FilterError
                XCTAssertEqual(failure?.position, position, text)
                XCTAssertEqual(failure?.message, "a NUL character is not allowed in a filter")
            }
        }
        XCTAssertNoThrow(try FilterParser.parse("title ~ 'feed zzz'"))
    }

    func testSearchWordsWithANULAreRefused() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.file("aggr.sqlite"))
        XCTAssertThrowsError(try store.search("\u{0}")) { error in
            XCTAssertEqual(error as? SearchError, SearchError(position: 0, message: "a NUL character is not allowed"))
        }
        XCTAssertThrowsError(try store.search("数据\u{0}库"))
        XCTAssertEqual(try store.search("数据库"), [])
    }
}
