import Aggregator
import AggregatorTestSupport
import XCTest

final class OPMLAndExportTests: EndToEndTestCase {
    func testImportOPMLAddsFeedsKeepingEverythingElse() throws {
        directory.write(
            "providers.json",
            """
            {
              "providers": [
                { "id": "v2ex", "type": "v2ex", "sections": ["hot"] },
                { "id": "example-engineering", "type": "feed", "options": { "url": "https://other.example/feed" } }
              ],
              "timeline": { "limit": 25 }
            }
            """)
        let opml = directory.write("subs.opml", try fixture("subscriptions.opml"))
        let dry = try aggr("import-opml", opml, "--dry-run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.hasPrefix("would add "))
        let result = try aggr("import-opml", opml)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            added example-engineering-2 https://blog.example.com/feed.xml
            added caf-code https://cafe.example.org/atom.xml
            added v2ex-2 https://www.v2ex.com/index.xml

            """)
        XCTAssertTrue(result.stderr.hasSuffix("3 feeds added to \(directory.path)/providers.json, 1 already configured\n"), result.stderr)
        let written = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        XCTAssertEqual(
            written,
            """
            {
              "providers": [
                { "id": "v2ex", "type": "v2ex", "sections": ["hot"] },
                { "id": "example-engineering", "type": "feed", "options": { "url": "https://other.example/feed" } },
                { "id": "example-engineering-2", "type": "feed", "options": { "url": "https://blog.example.com/feed.xml" } },
                { "id": "caf-code", "type": "feed", "options": { "url": "https://cafe.example.org/atom.xml" } },
                { "id": "v2ex-2", "type": "feed", "options": { "url": "https://www.v2ex.com/index.xml" } }
              ],
              "timeline": { "limit": 25 }
            }

            """)
        let again = try aggr("import-opml", opml)
        XCTAssertTrue(again.stderr.hasPrefix("0 feeds added"), again.stderr)
        XCTAssertEqual(try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8), written, "nothing changes")

        let bad = directory.write("bad.opml", "<html>no</html>")
        let failed = try aggr("import-opml", bad)
        XCTAssertEqual(failed.status, 65)
        XCTAssertEqual(failed.stderr, "aggr: \(bad) is not a readable feed: not an OPML document (no <opml> root)\n")

        // libxml2 is loaded on first use, not linked: one that cannot be loaded is named
        // (not taken for a bad file), and the config stays as it was.
        let libraries = directory.file("broken-libraries")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        directory.write("broken-libraries/libxml2.so.2", "")
        let unloadable = try aggr("import-opml", opml, environment: ["LD_LIBRARY_PATH": libraries])
        XCTAssertEqual(unloadable.status, 65)
        XCTAssertTrue(
            unloadable.stderr.hasPrefix("aggr: \(opml) is not a readable feed: cannot load libxml2: \(libraries)/libxml2.so.2"),
            unloadable.stderr)
        XCTAssertEqual(try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8), written)
    }

    func testExportsAreValidAndReadBack() throws {
        directory.write(
            "providers.json", #"{"providers": [{"id": "feed", "type": "feed", "options": {"url": "https://feeds.example.com/x.xml"}}]}"#)
        XCTAssertEqual(try aggr("import", "-", input: try fixture("timeline.ndjson")).status, 0)

        let atom = try aggr("export", "--format", "atom")
        XCTAssertEqual(atom.status, 0, atom.stderr)
        let atomFeed = try FeedParser(url: "file:export.atom").parse(Array(atom.stdout.utf8))
        XCTAssertEqual(atomFeed.format, .atom)
        XCTAssertEqual(atomFeed.entries.count, 6, "deduplicated like the timeline")
        XCTAssertEqual(atomFeed.entries[0].title, "用 Swift 写了一个多论坛聚合器，求建议")
        XCTAssertEqual(atomFeed.entries[0].link, "https://www.v2ex.com/t/1147555")
        XCTAssertEqual(atomFeed.entries[0].id, "urn:aggr:v2ex:1147555")
        XCTAssertFalse(atom.stdout.contains("\u{1B}"), "control characters cannot reach XML")

        let json = try aggr("export", "--format", "jsonfeed", "--provider", "github")
        let jsonFeed = try FeedParser(url: "file:export.json").parse(Array(json.stdout.utf8))
        XCTAssertEqual(
            jsonFeed.entries.map(\.link),
            ["https://github.com/groue/GRDB.swift", "https://github.com/swiftlang/swift/releases/tag/swift-6.3.1-RELEASE"])

        let opml = try aggr("export", "--format", "opml", "-o", directory.file("out.opml"))
        XCTAssertEqual(opml.stderr, "exported 6 items to \(directory.file("out.opml"))\n")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: directory.file("out.opml")))
        let document = try MarkupDocument.xml([UInt8](data))
        XCTAssertEqual(try document.select(xpath: "/opml/body/outline").count, 4, "one outline per provider")
        XCTAssertEqual(try document.select(xpath: "//outline[@type='link']").count, 6)
        XCTAssertEqual(
            try OPML.subscriptions(in: [UInt8](data), file: "out.opml").map(\.feedURL), [], "the feed provider has no items here")
    }
}
