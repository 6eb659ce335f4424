import Aggregator
import AggregatorTestSupport
import ConsoleFrontEnd
import Providers
import XCTest

final class FeedProviderTests: XCTestCase {
    let loader = ConfigLoader(registry: BuiltinProviders.registry)

    func load(_ text: String) throws -> Configuration {
        try loader.parse(bytes: Array(text.utf8), file: "providers.json")
    }

    func testEntriesWithAURLOptionNeedNoSections() throws {
        let configuration = try load(
            #"{"providers": [{"id": "blog", "type": "feed", "options": {"url": "https://blog.example.com/feed.xml"}}]}"#)
        XCTAssertEqual(configuration.providers[0].sections.map(\.key), ["feed"])
    }

    func testConfigErrors() {
        let cases: [(String, String)] = [
            (
                #"{"providers": [{"id": "blog", "type": "feed"}]}"#,
                #"providers.json: providers[0].options: needs "url" (the feed's address), or sections such as "url/https://example.com/feed.xml""#
            ),
            (
                #"{"providers": [{"id": "blog", "type": "feed", "sections": ["url/ftp://x.example/feed"]}]}"#,
                #"providers.json: providers[0].sections[0]: feed URL must be an http or https URL (got "ftp://x.example/feed")"#
            ),
            (
                #"{"providers": [{"id": "blog", "type": "feed", "options": {"url": "not a url"}}]}"#,
                #"providers.json: providers[0].options.url: must be an http or https URL (got "not a url")"#
            ),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try load(text), text) { error in XCTAssertEqual("\(error)", message) }
        }
    }

    func testMappingKeepsFeedOrderForUndatedEntriesAndFallsBackForIDs() {
        let now = Date(timeIntervalSince1970: 1_795_219_200)
        let feed = Feed(
            format: .rss090, title: "Old", link: "http://old.example.net/",
            entries: [
                FeedEntry(title: "First", link: "http://old.example.net/1", summary: "<p>one</p>"),
                FeedEntry(title: "", summary: "Untitled body text"),
            ])
        let items = FeedItemMapper(provider: "old", section: "feed", feedURL: "http://old.example.net/rss", now: now).items(feed)
        XCTAssertEqual(items.map(\.id).first, "http://old.example.net/1", "the link stands in for a missing guid")
        XCTAssertTrue(items[1].id.hasPrefix("hash:"))
        XCTAssertEqual(items[1].title, "Untitled body text")
        XCTAssertEqual(items[1].url, "http://old.example.net/", "no link: the feed's site")
        XCTAssertGreaterThan(items[0].published, items[1].published, "undated entries keep feed order")
        XCTAssertEqual(items[0].summary, "one")
    }

    func testTypesListsTheFeedType() {
        let text = TypeCatalog.render(BuiltinProviders.registry, only: "feed")
        XCTAssertTrue(text.hasPrefix("feed — Feed: Any RSS 0.9x/1.0/2.0, Atom 1.0 or JSON Feed 1.x document."), text)
        XCTAssertTrue(text.contains("url/<feed url>"))
    }
}
