import Aggregator
import AggregatorTestSupport
import XCTest

/// What JSON from the user (providers.json) and from upstream does at the edges: bytes that
/// are not UTF-8, lone surrogates, ids past 2^53, duplicate keys.
final class JSONInputTests: EndToEndTestCase {
    func testConfigWithBrokenTextIsRefusedWithTheOffset() throws {
        let broken = Array(#"{"providers": [{"id": "v", "type": "v2ex", "sections": ["node/"#.utf8) + [0xE4, 0xBD] + Array(#""]}]}"#.utf8)
        _ = FileManager.default.createFile(atPath: directory.file("providers.json"), contents: Data(broken))
        let result = try aggr("providers")
        XCTAssertEqual(result.status, 78, result.stderr)
        XCTAssertTrue(result.stderr.contains("invalid UTF-8 (byte 0xe4 at byte offset 62)"), result.stderr)

        directory.write("providers.json", #"{"providers": [{"id": "v", "type": "v2ex", "sections": ["node/\ud800"]}]}"#)
        let surrogate = try aggr("timeline")
        XCTAssertEqual(surrogate.status, 78, surrogate.stderr)
        XCTAssertTrue(surrogate.stderr.contains("lone surrogate"), surrogate.stderr)
    }

    func testUpstreamIdsStayExactAndDuplicateKeysDoNotRejectAPayload() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/api") { _ in
            .text(#"{"items": [{"id": 1234567890123456789, "title": "old", "title": "Snowflake", "url": "/s/1", "n": 9007199254740993}]}"#)
        }
        server.route("/latin1") { _ in
            TestHTTPServer.Response(
                status: 200, headers: [("Content-Type", "application/json")],
                body: Array(#"[{"title": "caf"#.utf8) + [0xE9] + Array(#""}]"#.utf8))
        }
        server.route("/gh/repos/o/r/releases") { _ in
            TestHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: [0x5B, 0xFF, 0x5D])
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "api", "type": "json", "options": {"url": "\(server.baseURL)/api", "items": "items[*]",
               "fields": {"title": "title", "link": "url", "id": "id", "summary": "n"}}},
              {"id": "latin", "type": "json", "options": {"url": "\(server.baseURL)/latin1", "items": "[*]", "fields": {"title": "title", "link": "title"}}},
              {"id": "gh", "type": "github", "api_url": "\(server.baseURL)/gh", "sections": ["releases/o/r"]}
            ]}
            """)
        let refresh = try aggr("refresh")
        XCTAssertEqual(refresh.status, 2, refresh.stderr)
        let lines = refresh.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("api api: 1 new, 0 updated, 0 unchanged"), refresh.stderr)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("latin api: failed:") && $0.contains("invalid UTF-8 (byte 0xe9 at byte offset 15)") },
            refresh.stderr)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("gh releases/o/r: failed:") && $0.contains("not valid UTF-8 (byte 0xff at byte offset 1)") },
            refresh.stderr)
        let item = try aggr("timeline", "--format", "ndjson", "-p", "api").stdout
        XCTAssertTrue(item.contains(#""id":"1234567890123456789""#), item)
        XCTAssertTrue(item.contains(#""title":"Snowflake""#), item)
        XCTAssertTrue(item.contains(#""summary":"9007199254740993""#), item)
    }
}
