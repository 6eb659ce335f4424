import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

/// `aggr providers add|remove|enable|disable` edit providers.json safely.
final class ProvidersEditTests: EndToEndTestCase {
    let original = """
        {
          "providers": [
            { "id": "v2ex", "type": "v2ex", "sections": ["hot"] },
            { "id": "blog", "type": "feed", "options": { "url": "https://blog.example.com/feed.xml" } }
          ],
          "timeline": { "limit": 25 },
          "views": { "releases": "kind = release" }
        }

        """

    func testEditsKeepOrderAndUnrelatedKeys() throws {
        directory.write("providers.json", original)
        let added = try aggr(
            "providers", "add", "swift-releases", "github", "releases/swiftlang/swift", "--token-env", "GITHUB_TOKEN", "--interval", "30m")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(added.stderr, "added swift-releases (github) to \(directory.path)/providers.json\n")
        XCTAssertEqual(try aggr("providers", "add", "news", "feed", "--option", "url=https://news.example/rss").status, 0)
        XCTAssertEqual(try aggr("providers", "disable", "v2ex").stderr, "disabled v2ex in \(directory.path)/providers.json\n")
        XCTAssertEqual(try aggr("providers", "remove", "blog").status, 0)
        let text = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            {
              "providers": [
                { "id": "v2ex", "type": "v2ex", "sections": ["hot"], "enabled": false },
                {
                  "id": "swift-releases",
                  "type": "github",
                  "sections": ["releases/swiftlang/swift"],
                  "token_env": "GITHUB_TOKEN",
                  "interval": "30m"
                },
                { "id": "news", "type": "feed", "options": { "url": "https://news.example/rss" } }
              ],
              "timeline": { "limit": 25 },
              "views": { "releases": "kind = release" }
            }

            """)
        XCTAssertEqual(try aggr("providers", "enable", "v2ex").status, 0)
        XCTAssertFalse(try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8).contains("enabled"))
        XCTAssertTrue(try aggr("providers").stdout.contains("swift-releases"), "the list still works as the default")
    }

    func testBadEditsChangeNothing() throws {
        directory.write("providers.json", original)
        let unknownType = try aggr("providers", "add", "x", "githb", "releases/a/b")
        XCTAssertEqual(unknownType.status, 78)
        XCTAssertTrue(
            unknownType.stderr.contains("providers[2].type: unknown type \"githb\" (did you mean \"github\"?)"), unknownType.stderr)
        let badSection = try aggr("providers", "add", "x", "github", "release/a/b")
        XCTAssertEqual(badSection.status, 78)
        let duplicate = try aggr("providers", "add", "v2ex", "v2ex", "latest")
        XCTAssertEqual(duplicate.stderr, "aggr: a provider \"v2ex\" exists already\n")
        let missing = try aggr("providers", "remove", "blgo")
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stderr, "aggr: no provider \"blgo\" (did you mean \"blog\"?)\n")
        XCTAssertEqual(try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8), original, "the file is untouched")
    }

    func testAnInterruptedWriteLeavesTheOldFileIntact() throws {
        let path = directory.write("providers.json", original)
        // Occupy the temporary file's name so the write fails before the rename.
        try FileManager.default.createDirectory(
            atPath: directory.file(".providers.json.\(getpid()).tmp"), withIntermediateDirectories: true)
        let editor = ConfigEditor(path: path, registry: BuiltinProviders.registry)
        let document = try editor.document()
        var entries = ConfigEditor.providers(of: document)
        entries.removeLast()
        XCTAssertThrowsError(try editor.save(ConfigEditor.replacingProviders(in: document, with: entries)))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), original)
    }
}
