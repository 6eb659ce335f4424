import Aggregator
import XCTest

final class WebURLTests: XCTestCase {
    func testCanonicalFormFoldsSchemeHostPortSlashAndTracking() {
        XCTAssertEqual(WebURL.canonical("http://WWW.GitHub.com:80/a/b/?utm_source=x"), "https://github.com/a/b")
        XCTAssertEqual(WebURL.canonical("https://github.com/a/b"), "https://github.com/a/b")
        XCTAssertEqual(WebURL.canonical("https://example.com"), "https://example.com/")
        XCTAssertEqual(WebURL.canonical("https://example.com/p?id=3&utm_medium=rss"), "https://example.com/p?id=3")
    }

    func testFragmentsStayDistinct() {
        XCTAssertNotEqual(WebURL.canonical("https://www.v2ex.com/t/1#r_2"), WebURL.canonical("https://www.v2ex.com/t/1"))
    }

    func testRecognizesOnlyHTTPURLs() {
        XCTAssertTrue(WebURL.isHTTP("https://a.example/x"))
        XCTAssertFalse(WebURL.isHTTP("ftp://a.example/x"))
        XCTAssertFalse(WebURL.isHTTP("javascript:alert(1)"))
        XCTAssertFalse(WebURL.isHTTP("/relative"))
    }
}
