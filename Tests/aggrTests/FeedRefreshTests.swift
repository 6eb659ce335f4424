import Aggregator
import AggregatorTestSupport
import XCTest

final class FeedRefreshTests: EndToEndTestCase {
    func testAFeedRefreshesEndToEnd() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let rss = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Loopback Blog</title><link>\(server.baseURL)/</link>
            <item><title>Hello &amp; welcome</title><link>/posts/1</link><guid>p1</guid><pubDate>Fri, 20 Nov 2026 09:30:00 GMT</pubDate>
            <description>&lt;p&gt;First post&lt;/p&gt;</description></item>
            <item><title>Second</title><link>/posts/2</link><guid>p2</guid><pubDate>Thu, 19 Nov 2026 09:30:00 GMT</pubDate></item>
            </channel></rss>
            """
        server.route("/feed.xml") { _ in
            .text(rss, contentType: "application/rss+xml; charset=utf-8", headers: [("Last-Modified", "Fri, 20 Nov 2026 10:00:00 GMT")])
        }
        server.route("/atom") { _ in
            .text(
                #"<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><id>a1</id><title>Atom entry</title><link href="https://a.example/1"/><updated>2026-11-18T00:00:00Z</updated></entry></feed>"#,
                contentType: "application/atom+xml")
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "blog", "type": "feed", "options": {"url": "\(server.baseURL)/feed.xml"}},
              {"id": "atoms", "type": "feed", "sections": ["url/\(server.baseURL)/atom"]}
            ]}
            """)
        let refresh = try aggr("refresh")
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("blog feed: 2 new"), refresh.stderr)
        let timeline = try aggr("timeline", "--format", "tsv")
        let rows = timeline.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        XCTAssertEqual(rows.map { $0[6] }, ["Hello & welcome", "Second", "Atom entry"])
        XCTAssertEqual(rows[0][7], "\(server.baseURL)/posts/1", "relative links resolve against the channel link")
        let text = try aggr("timeline")
        XCTAssertTrue(text.stdout.contains("Loopback Blog"), "the feed title labels the section: \(text.stdout)")

        let again = try aggr("refresh", "--force")
        XCTAssertTrue(again.stderr.contains("blog feed: not modified"), again.stderr)
        XCTAssertEqual(server.requests.last { $0.path == "/feed.xml" }?.header("If-Modified-Since"), "Fri, 20 Nov 2026 10:00:00 GMT")
    }

    /// A feed without an encoding of its own is read in the charset its Content-Type names,
    /// quoted or not, with white space around the parameter.
    func testTheContentTypeCharsetDecodesAFeedWithoutADeclaration() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        @Sendable func latin1(_ link: String) -> [UInt8] {
            let rss =
                "<rss version=\"2.0\"><channel><title>Latin</title><item><title>Caf\u{E9} cr\u{E8}me</title><link>\(link)</link></item></channel></rss>"
            return rss.unicodeScalars.map { UInt8($0.value) }
        }
        server.route("/quoted") { _ in
            TestHTTPServer.Response(
                headers: [("Content-Type", "application/rss+xml;  Charset = \"ISO-8859-1\" ")], body: latin1("https://l.example/1"))
        }
        server.route("/bare") { _ in
            TestHTTPServer.Response(headers: [("Content-Type", "text/xml; charset=iso-8859-1")], body: latin1("https://l.example/2"))
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "quoted", "type": "feed", "options": {"url": "\(server.baseURL)/quoted"}},
              {"id": "bare", "type": "feed", "options": {"url": "\(server.baseURL)/bare"}}
            ]}
            """)
        let refresh = try aggr("refresh")
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        let timeline = try aggr("timeline", "--format", "tsv")
        let titles = timeline.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)[6]
        }
        XCTAssertEqual(titles, ["Caf\u{E9} cr\u{E8}me", "Caf\u{E9} cr\u{E8}me"], timeline.stdout)
    }

    /// A host that says "slow down" (429, Retry-After) holds back the feeds on that host
    /// and no other: feeds have no API, so each host is its own rate budget.
    func testARateLimitingHostHoldsBackItsOwnFeedsOnly() throws {
        let busy = try TestHTTPServer()
        defer { busy.stop() }
        let calm = try TestHTTPServer()
        defer { calm.stop() }
        let rss =
            #"<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>Post</title><link>https://blog.example/1</link><guid>g1</guid></item></channel></rss>"#
        busy.route("/spent.xml") { _ in .text("slow down", status: 429, headers: [("Retry-After", "7200")]) }
        for server in [busy, calm] { server.route("/feed.xml") { _ in .text(rss, contentType: "application/rss+xml") } }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "spent", "type": "feed", "options": {"url": "\(busy.baseURL)/spent.xml"}},
              {"id": "neighbour", "type": "feed", "options": {"url": "\(busy.baseURL)/feed.xml"}},
              {"id": "elsewhere", "type": "feed", "sections": ["url/\(calm.baseURL)/feed.xml"]}
            ]}
            """)
        let first = try aggr("refresh", "spent")
        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertTrue(first.stderr.contains("spent"), first.stderr)
        let second = try aggr("refresh", "--force")
        XCTAssertTrue(second.stderr.contains("(budget shared with spent)"), second.stderr)
        XCTAssertTrue(
            second.stderr.contains("elsewhere url/\(calm.baseURL)/feed.xml: 1 new"), "another host is not held back: \(second.stderr)")
        XCTAssertEqual(busy.requests.filter { $0.path == "/feed.xml" }.count, 0, "nothing asked of the host that said wait")
        XCTAssertEqual(calm.requests.count, 1)
    }
}
