import Aggregator
import AggregatorTestSupport
import XCTest

/// Full text of a summary-only item: its page read once (no cookie, no tracking
/// parameters), its article kept with the item, shown by `aggr show --full` and the web.
final class FullTextTests: ServeTestCase {
    func testTheArticleOfAnItemsPageIsReadOnceKeptAndShown() throws {
        guard let page = SharedFixtures.bytes("readability/002/source.html") else {
            throw XCTSkip("../shared/fixtures is not beside the repository")
        }
        let site = try TestHTTPServer()
        defer { site.stop() }
        site.route("/posts/fetch") { _ in TestHTTPServer.Response(headers: [("Content-Type", "text/html; charset=utf-8")], body: page) }
        site.route("/big") { _ in
            TestHTTPServer.Response(
                headers: [("Content-Type", "text/html")], body: Array(repeating: UInt8(ascii: "a"), count: 6 * 1_048_576))
        }
        directory.write(
            "providers.json",
            #"{"providers": [{"id": "blog", "type": "feed", "cookie_env": "BLOG_COOKIE", "options": {"url": "\#(site.baseURL)/feed.xml"}}]}"#
        )
        let items = """
            {"provider":"blog","section":"feed","id":"a1","kind":"post","title":"Fetch API","url":"\(site.baseURL)/posts/fetch?utm_source=rss&utm_medium=feed&id=7&fbclid=abc","published":"2026-11-20T10:00:00Z","summary":"One line only."}
            {"provider":"blog","section":"feed","id":"a2","kind":"post","title":"Huge","url":"\(site.baseURL)/big","published":"2026-11-19T10:00:00Z","summary":"big"}
            """
        XCTAssertEqual(try aggr("import", "-", input: items).status, 0)

        let shown = try aggr("show", "blog:a1", "--full", environment: ["BLOG_COOKIE": "session=SECRETCOOKIE"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("full text · by Nikhil Marathe"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("For more than a decade the Web has used XMLHttpRequest"), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("One line only."), "the article replaces the feed's line")
        let request = try XCTUnwrap(site.requests.first)
        XCTAssertEqual(request.query, "id=7", "tracking parameters are not sent")
        XCTAssertNil(request.header("Cookie"), "no cookie goes with a page read for its article")
        XCTAssertEqual(try aggr("show", "blog:a1", "--full").status, 0)
        XCTAssertEqual(site.requests.count, 1, "kept: not fetched again")
        XCTAssertEqual(try aggr("show", "blog:a1", "--full", "--refetch").status, 0)
        XCTAssertEqual(site.requests.count, 2, "unless asked")
        XCTAssertTrue(try aggr("show", "blog:a1").stdout.contains("One line only."), "without --full, the feed's text")

        let big = try aggr("show", "blog:a2", "--full")
        XCTAssertEqual(big.status, 1)
        XCTAssertTrue(big.stderr.contains("is over 5 MB; not read"), big.stderr)

        // The web item page's button reads it too and shows it in place.
        let base = try startServe()
        let browser = session(base)
        let itemPage = try browser.send("GET", "/item/1")
        XCTAssertTrue(itemPage.body.contains(">Full text</button>"), itemPage.body)
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: itemPage.body))
        let pressed = try browser.send("POST", "/item/1/full", form: [("csrf", token)])
        XCTAssertEqual(pressed.header("Location"), "/item/1?full=1")
        let full = try browser.send("GET", "/item/1?full=1").body
        XCTAssertTrue(full.contains("Full text from the item") && full.contains("For more than a decade"), full)
        let article = try XCTUnwrap(full.range(of: "content full-text").map { full[$0.upperBound...] })
        XCTAssertFalse(article.prefix { _ in true }.contains("<script"), "sanitized")
    }
}
