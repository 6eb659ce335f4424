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
}
