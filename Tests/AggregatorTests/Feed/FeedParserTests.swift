import Aggregator
import AggregatorTestSupport
import XCTest

final class FeedParserTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_219_200)

    func local(_ name: String, file: StaticString = #filePath) throws -> [UInt8] {
        let path = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func parse(_ bytes: [UInt8], url: String = "https://feeds.example.com/feed", charset: String? = nil) throws -> Feed {
        try FeedParser(url: url, charset: charset, now: now).parse(bytes)
    }

    func iso(_ date: Date?) -> String? { date.map(ISOTimestamp.format) }

    func testRealGitHubAtomFeeds() throws {
        guard let commits = SharedFixtures.bytes("github/commits-atom-xobjectz-objx-2024-03.xml"),
            let releases = SharedFixtures.bytes("github/releases-atom-au5ton-use-atom-feed-2021-05.xml"),
            let timeline = SharedFixtures.bytes("github/timeline-atom-public-2014-01.xml")
        else { throw XCTSkip("../shared/fixtures not found beside this checkout") }

        let commitFeed = try parse(commits)
        XCTAssertEqual(commitFeed.format, .atom)
        XCTAssertEqual(commitFeed.title, "Recent Commits to objx:master")
        XCTAssertEqual(commitFeed.entries.count, 20)
        let commit = commitFeed.entries[0]
        XCTAssertEqual(commit.id, "tag:github.com,2008:Grit::Commit/935d09c548b9d00c9ddf5e1c542e3ae87a64ad58")
        XCTAssertEqual(commit.title, "lintify", "titles padded with whitespace on separate lines are trimmed")
        XCTAssertEqual(commit.link, "https://github.com/xobjectz/objx/commit/935d09c548b9d00c9ddf5e1c542e3ae87a64ad58")
        XCTAssertEqual(commit.author, "xobjectz")
        XCTAssertNil(commit.published)
        XCTAssertEqual(iso(commit.updated), "2024-03-08T03:15:07Z")
        XCTAssertEqual(commit.content.map(HTMLText.plainText), "lintify")

        let releaseFeed = try parse(releases)
        XCTAssertEqual(releaseFeed.entries.count, 9)
        XCTAssertEqual(releaseFeed.link, "https://github.com/au5ton/use-atom-feed/releases")
        XCTAssertEqual(releaseFeed.entries[0].title, "v0.1.0")
        XCTAssertEqual(iso(releaseFeed.entries[0].updated), "2021-05-19T21:04:05Z")
        XCTAssertEqual(releaseFeed.entries[0].content, "<p>Initial release with in-house parser using DOM only methods</p>")
        XCTAssertNil(releaseFeed.entries[0].image, "media:thumbnail is the author's avatar, not an enclosure")

        let timelineFeed = try parse(timeline)
        XCTAssertEqual(timelineFeed.entries.count, 30)
        XCTAssertEqual(timelineFeed.entries[0].id, "tag:github.com,2008:PushEvent/1942854652")
        XCTAssertEqual(timelineFeed.entries[0].title, "neogeek pushed to master at neogeek/neogeek.github.io")
        XCTAssertEqual(iso(timelineFeed.entries[0].published), "2014-01-14T01:11:11Z")
    }

    func testRSS2WithRelativeLinksContentAndEnclosures() throws {
        let feed = try parse(try local("rss2.xml"))
        XCTAssertEqual(feed.format, .rss2)
        XCTAssertEqual(feed.title, "Example Engineering Blog")
        let first = feed.entries[0]
        XCTAssertEqual(first.id, "post-42")
        XCTAssertEqual(first.title, "Shipping & measuring: a fast timeline")
        XCTAssertEqual(first.link, "https://blog.example.com/posts/fast-timeline", "relative links resolve against the channel link")
        XCTAssertEqual(first.author, "Ada Lovelace")
        XCTAssertEqual(iso(first.published), "2026-11-20T09:30:00Z")
        XCTAssertEqual(first.summary, "<p>Short <em>summary</em>.</p>")
        XCTAssertEqual(first.content, "<p>The full article.</p>")
        XCTAssertEqual(first.tags, ["swift", "sqlite"])
        XCTAssertEqual(first.image, "https://blog.example.com/img/cover.png")
        let second = feed.entries[1]
        XCTAssertEqual(second.link, "https://blog.example.com/posts/second", "a permalink guid is the link")
        XCTAssertEqual(second.author, "Editor")
        XCTAssertNil(second.image, "an audio enclosure is no image")
    }

    /// RSS person fields are addresses; readers show the name in them, as feedparser does.
    func testRSSAuthorsShowTheNameInAnAddress() throws {
        let authors = [
            "someone@example.com (张三)", "李四 <li@example.com>", "\"Wang Wu\" <wang@example.com>", "plain@example.com",
            "Ana (editor)", "  Bo  ",
        ]
        let items = authors.enumerated().map { index, author in
            "<item><title>t\(index)</title><link>https://x.example/\(index)</link><author>\(author.replacingOccurrences(of: "<", with: "&lt;"))</author></item>"
        }
        let xml = "<rss version=\"2.0\"><channel><title>c</title>" + items.joined() + "</channel></rss>"
        let feed = try parse(Array(xml.utf8))
        XCTAssertEqual(feed.entries.map(\.author), ["张三", "李四", "Wang Wu", "plain@example.com", "Ana (editor)", "Bo"])
    }

    func testRSS1AndRSS091() throws {
        let rdf = try parse(try local("rss1.rdf"))
        XCTAssertEqual(rdf.format, .rss1)
        XCTAssertEqual(rdf.title, "Planet Example")
        XCTAssertEqual(rdf.entries.map(\.id), ["https://planet.example.org/a"], "rdf:about is the id")
        XCTAssertEqual(rdf.entries[0].author, "Rdf Author")
        XCTAssertEqual(iso(rdf.entries[0].published), "2026-11-18T09:00:00Z")

        let old = try parse(try local("rss091.xml"))
        XCTAssertEqual(old.format, .rss090)
        XCTAssertEqual(old.entries[0].title, "Café opening")
        XCTAssertNil(old.entries[0].published)
        XCTAssertNil(old.entries[0].id)
    }

    func testAtomWithXMLBaseAndXHTML() throws {
        let feed = try parse(try local("atom-xmlbase.xml"))
        XCTAssertEqual(feed.title, "Relative & Based")
        XCTAssertEqual(feed.link, "https://example.org/blog/")
        let entry = try XCTUnwrap(feed.entries.first)
        XCTAssertEqual(entry.title, "An xhtml title")
        XCTAssertEqual(entry.link, "https://example.org/blog/posts/first.html", "nested xml:base applies")
        XCTAssertEqual(entry.image, "https://example.org/media/first.jpg")
        XCTAssertEqual(entry.tags, ["Operations"])
        XCTAssertEqual(iso(entry.published), "2026-11-20T03:00:00Z")
        XCTAssertEqual(entry.content.map(HTMLText.plainText), "Rich content")
    }

    func testJSONFeed() throws {
        let feed = try parse(try local("jsonfeed.json"))
        XCTAssertEqual(feed.format, .jsonFeed)
        XCTAssertEqual(feed.entries.map(\.id), ["1", "2"])
        XCTAssertEqual(feed.entries[0].link, "https://json.example.com/posts/1")
        XCTAssertEqual(feed.entries[0].author, "Feed Author")
        XCTAssertEqual(iso(feed.entries[0].published), "2026-11-20T15:00:00Z")
        XCTAssertEqual(feed.entries[0].image, "https://json.example.com/1.png")
        XCTAssertEqual(feed.entries[1].link, "https://elsewhere.example/x")
        XCTAssertEqual(feed.entries[1].author, "Item Author")
        XCTAssertEqual(feed.entries[1].content, "Untitled, text only")
        XCTAssertThrowsError(try parse(Array(#"{"items": []}"#.utf8))) { error in
            XCTAssertEqual("\(error)", "https://feeds.example.com/feed is not a readable feed: JSON without a jsonfeed.org \"version\"")
        }
    }

    func testBrokenFeedsStillYieldWhatTheyHold() throws {
        let rss = String(decoding: try local("rss2.xml"), as: UTF8.self)
        let truncated = String(rss.prefix(rss.range(of: "<title>Second post")!.lowerBound.utf16Offset(in: rss) + 30))
        let cut = try parse(Array(truncated.utf8))
        XCTAssertEqual(cut.entries.first?.title, "Shipping & measuring: a fast timeline", "a truncated feed keeps its complete items")

        let entities = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Ent&eacute;</title>
            <item><title>Caf&eacute;&nbsp;&mdash; open</title><link>https://e.example/1</link></item></channel></rss>
            """
        let withEntities = try parse(Array(entities.utf8))
        XCTAssertEqual(withEntities.entries.first?.title, "Café — open", "HTML entities in XML are understood")

        let latin1Declared = Array(
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>x</title><item><title>数据库 ünïcode</title><link>https://e.example/2</link></item></channel></rss>"
                .utf8)
        let wrongDeclaration = try parse(latin1Declared, charset: "utf-8")
        XCTAssertEqual(wrongDeclaration.entries.first?.title, "数据库 ünïcode", "the Content-Type charset wins over a wrong declaration")

        XCTAssertThrowsError(try parse(Array("<html><body>Not a feed</body></html>".utf8))) { error in
            XCTAssertTrue("\(error)".contains("no <rss>, <feed> or <rdf:RDF> element"), "\(error)")
        }
        XCTAssertThrowsError(try parse([]))
    }
}
