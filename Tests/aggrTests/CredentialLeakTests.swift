import Aggregator
import AggregatorTestSupport
import XCTest

/// Credentials in configured URLs (query parameters, userinfo) never reach any output,
/// export, error or the database, whichever command shows them.
final class CredentialLeakTests: EndToEndTestCase {
    func testCredentialsInFeedURLsAppearNowhere() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        // The second entry has no link: it falls back to the feed's own URL.
        let rss = """
            <rss version="2.0"><channel><title>Private</title>
            <item><title>Linked</title><link>/posts/1</link><guid>p1</guid><pubDate>Fri, 20 Nov 2026 09:30:00 GMT</pubDate></item>
            <item><title>Unlinked secret post</title><guid>p2</guid><pubDate>Thu, 19 Nov 2026 09:30:00 GMT</pubDate></item>
            </channel></rss>
            """
        server.route("/feed.xml") { _ in .text(rss, contentType: "application/rss+xml") }
        server.route("/missing") { _ in .text("no", status: 500) }
        let host = server.baseURL.replacingOccurrences(of: "http://", with: "")
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "blog", "type": "feed", "options": {"url": "http://user:S3CRET0@\(host)/feed.xml?token=S3CRET1&api-key=S3CRET2"}},
              {"id": "news", "type": "feed", "sections": ["url/\(server.baseURL)/feed.xml?Access_Token=S3CRET3&auth_token=S3CRET4"]},
              {"id": "down", "type": "feed", "sections": ["url/\(server.baseURL)/missing?key=S3CRET5"]}
            ]}
            """)
        var outputs: [String] = []
        func run(_ arguments: String...) throws {
            let result = try runner.run(arguments, in: directory.path, input: nil)
            outputs.append("$ aggr \(arguments.joined(separator: " "))\n\(result.stdout)\n\(result.stderr)")
        }
        try run("refresh")
        try run("refresh", "--force", "--record", directory.file("rec"))
        try run("providers")
        for format in ["text", "json", "ndjson", "tsv"] {
            try run("timeline", "--format", format)
            try run("search", "post", "--format", format)
        }
        try run("show", "1")
        try run("show", "2")
        for format in ["atom", "jsonfeed", "opml"] { try run("export", "--format", format) }
        let all = outputs.joined(separator: "\n")
        XCTAssertTrue(all.contains("Unlinked secret post"), all)
        XCTAssertTrue(all.contains("token=REDACTED"), "the redacted key is still shown: \(all)")
        XCTAssertFalse(all.contains("S3CRET"), all)
        let files = recordedFiles(in: directory.file("rec"))
        XCTAssertGreaterThan(files.count, 1, "the recording was written")
        for file in files {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: file))
            XCTAssertNil(bytes.range(of: Data("S3CRET".utf8)), "\(file) holds a secret")
        }
        let database = try storedBytes()
        XCTAssertNotNil(database.range(of: Data("Unlinked secret post".utf8)), "the look is at what was stored")
        XCTAssertNil(database.range(of: Data("S3CRET".utf8)), "the database holds a secret")
    }
}
