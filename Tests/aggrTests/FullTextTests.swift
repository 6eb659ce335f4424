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
        // The article is searchable: the feed's line never said XMLHttpRequest.
        let found = try aggr("search", "XMLHttpRequest", "--format", "tsv")
        XCTAssertTrue(found.stdout.contains("Fetch API"), found.stdout + found.stderr)
        XCTAssertFalse(try aggr("search", "Huge").stdout.contains("Fetch API"))

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

    /// `"full_text"` reads new items' pages during refresh: by the extractor, or by a
    /// selector; a page that fails is logged and leaves the refresh a success.
    func testFullTextProvidersReadNewItemsPagesDuringRefresh() throws {
        guard let page = SharedFixtures.bytes("readability/002/source.html") else {
            throw XCTSkip("../shared/fixtures is not beside the repository")
        }
        let site = try TestHTTPServer()
        defer { site.stop() }
        let rss = """
            <rss version="2.0"><channel><title>Blog</title><link>\(site.baseURL)/</link>
            <item><title>Fetch API</title><link>\(site.baseURL)/posts/fetch?utm_campaign=x</link><guid>a1</guid><description>One line.</description></item>
            <item><title>Gone</title><link>\(site.baseURL)/posts/gone</link><guid>a2</guid><description>Another line.</description></item>
            </channel></rss>
            """
        site.route("/feed.xml") { _ in .text(rss, contentType: "application/rss+xml") }
        site.route("/posts/fetch") { _ in TestHTTPServer.Response(headers: [("Content-Type", "text/html")], body: page) }
        site.route("/posts/gone") { _ in .text("gone", status: 404, contentType: "text/plain") }
        site.route("/notes/") { _ in
            .text(
                #"<html><body><div class="nav">menu</div><main><article class="post"><p>只要这一段。</p></article></main></body></html>"#,
                contentType: "text/html")
        }
        site.route("/notes.xml") { _ in
            .text(
                #"<rss version="2.0"><channel><title>Notes</title><item><title>N</title><link>\#(site.baseURL)/notes/1</link><guid>n1</guid></item></channel></rss>"#,
                contentType: "application/rss+xml")
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "blog", "type": "feed", "full_text": true, "options": {"url": "\(site.baseURL)/feed.xml"}},
              {"id": "notes", "type": "feed", "full_text": {"selector": "article.post"}, "options": {"url": "\(site.baseURL)/notes.xml"}}
            ]}
            """)
        let refresh = try aggr("refresh")
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("full text of item") && refresh.stderr.contains("HTTP 404"), refresh.stderr)
        XCTAssertEqual(site.requests.filter { $0.path == "/posts/fetch" }.map(\.query), [""], "read once, tracking removed")
        let shown = try aggr("show", "blog:a1", "--full")
        XCTAssertTrue(shown.stdout.contains("For more than a decade the Web has used XMLHttpRequest"), shown.stdout)
        XCTAssertEqual(site.requests.filter { $0.path == "/posts/fetch" }.count, 1, "the kept article shown, not fetched again")
        let note = try aggr("show", "notes:n1", "--full").stdout
        XCTAssertTrue(note.contains("只要这一段。") && !note.contains("menu"), note)
        XCTAssertEqual(try aggr("refresh", "--force").status, 0)
        XCTAssertEqual(site.requests.filter { $0.path == "/posts/fetch" }.count, 1, "kept articles are not read again on refresh")

        directory.write(
            "providers.json",
            #"{"providers": [{"id": "blog", "type": "feed", "full_text": {"selector": "div["}, "options": {"url": "\#(site.baseURL)/feed.xml"}}]}"#
        )
        let bad = try aggr("providers")
        XCTAssertEqual(bad.status, 78)
        XCTAssertTrue(bad.stderr.contains("providers[0].full_text.selector"), bad.stderr)
    }
}
