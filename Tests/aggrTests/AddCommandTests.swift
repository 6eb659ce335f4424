import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

/// `aggr add <url>`.
final class AddCommandTests: EndToEndTestCase {
    func testAddingKnownSitesFeedsAndPagesAdvertisingFeeds() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        let rss =
            #"<rss version="2.0"><channel><title>Loopback Blog</title><item><title>x</title><link>https://e.example/1</link></item></channel></rss>"#
        server.route("/feed.xml") { _ in .text(rss, contentType: "application/rss+xml") }
        server.route("/blog") { _ in
            .text(
                #"<html><head><link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.xml"></head><body>hi</body></html>"#,
                contentType: "text/html")
        }
        server.route("/plain") { _ in .text("<html><body>no feed here</body></html>", contentType: "text/html") }
        directory.write("providers.json", #"{"providers": [{"id": "v2ex", "type": "v2ex", "sections": ["hot"]}]}"#)

        let node = try aggr("add", "https://www.v2ex.com/go/swift")
        XCTAssertEqual(node.stdout, "added section node/swift to v2ex in \(directory.path)/providers.json\n")
        let repo = try aggr("add", "https://github.com/swiftlang/swift/releases")
        XCTAssertEqual(repo.stdout, "added provider github (github releases/swiftlang/swift) in \(directory.path)/providers.json\n")
        let dry = try aggr("add", "\(base)/blog", "--dry-run")
        XCTAssertEqual(dry.stdout, "would add provider loopback-blog (feed \(base)/feed.xml)\n")
        let page = try aggr("add", "\(base)/blog")
        XCTAssertEqual(page.status, 0, page.stderr)
        let again = try aggr("add", "\(base)/feed.xml")
        XCTAssertEqual(again.stderr, "\(base)/feed.xml is already followed; nothing added\n")
        let none = try aggr("add", "\(base)/plain")
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(
            none.stderr,
            "aggr: no feed at \(base)/plain and the page advertises none; the html type can read it with selectors (docs/providers.md)\n")
        XCTAssertEqual(
            try aggr("add", "https://gitee.com/kit101/drone-yml-test/issues").stdout,
            "added provider gitee (gitee issues/kit101/drone-yml-test) in \(directory.path)/providers.json\n")

        let configuration = try ConfigLoader(registry: BuiltinProviders.registry).load(path: directory.file("providers.json"))
        XCTAssertEqual(configuration.providers.map(\.id), ["v2ex", "github", "loopback-blog", "gitee"])
        XCTAssertEqual(configuration.providers[0].sections.map(\.key), ["hot", "node/swift"])
        XCTAssertEqual(configuration.providers[2].stringOption("url"), "\(base)/feed.xml")
    }
}
