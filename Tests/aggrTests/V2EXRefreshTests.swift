import Aggregator
import AggregatorTestSupport
import XCTest

/// Every V2EX section kind refreshed by the real binary against a loopback V2EX.
final class V2EXRefreshTests: EndToEndTestCase {
    let token = "v2ex-test-token-7f3a9c"

    func serve() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        var loaded: [String: String] = [:]
        for name in [
            "hot.json", "node-swift-p1.html", "node-swift-p2.html", "tab-tech.html", "topic-700001.html", "replies-700001.json",
            "v2-node-python-topics.json", "v2-node-python.json", "v2-notifications.json", "signin.html", "challenge-403.html",
        ] {
            loaded[name] = try fixture("v2ex/\(name)")
        }
        let files = loaded
        let hot = files["hot.json"]!
        let firstTopic = "[" + hot.components(separatedBy: "    },\n    {")[0].dropFirst(1) + "    }]"
        let expectedToken = token
        server.route("/api/topics/hot.json") { _ in .text(hot) }
        server.route("/api/topics/latest.json") { _ in .text("[]") }
        server.route("/api/topics/show.json") { request in
            switch request.query {
            case "id=700001": return .text(String(firstTopic))
            case "username=alice": return .text(hot)
            default: return .text(String(hot.prefix(300)))  // truncated JSON
            }
        }
        server.route("/api/replies/show.json") { _ in .text(files["replies-700001.json"]!) }
        server.route("/go/swift") { request in
            .text(files[request.query == "p=2" ? "node-swift-p2.html" : "node-swift-p1.html"]!, contentType: "text/html; charset=utf-8")
        }
        server.route("/go/blocked") { _ in .text(files["challenge-403.html"]!, status: 403, contentType: "text/html") }
        server.route("/t/700001") { _ in .text(files["topic-700001.html"]!, contentType: "text/html") }
        server.route("/signin") { _ in .text(files["signin.html"]!, contentType: "text/html") }
        server.route("/") { request in
            if request.query == "tab=members" {
                return TestHTTPServer.Response(status: 302, headers: [("Location", "/signin?next=/?tab=members")])
            }
            return .text(files["tab-tech.html"]!, contentType: "text/html", headers: [("Date", "Sat, 21 Nov 2026 01:00:00 GMT")])
        }
        server.route("/api/v2/") { request in
            guard request.header("Authorization") == "Bearer \(expectedToken)" else {
                return .text(#"{"success": false, "message": "Invalid token"}"#, status: 401)
            }
            switch request.path {
            case "/api/v2/notifications": return .text(files["v2-notifications.json"]!)
            case "/api/v2/nodes/python/topics": return .text(files["v2-node-python-topics.json"]!)
            default: return .text(files["v2-node-python.json"]!)
            }
        }
        return server
    }

    func testEverySectionKindEndToEnd() throws {
        let server = try serve()
        defer { server.stop() }
        let base = server.baseURL
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "api_url": "\(base)", "web_url": "\(base)",
               "sections": ["hot", "latest", "node/swift?pages=2", "tab/tech", "topic/700001", "member/alice"]},
              {"id": "v2page", "type": "v2ex", "api_url": "\(base)", "web_url": "\(base)", "sections": ["topic/700001?source=html"]},
              {"id": "v2token", "type": "v2ex", "api_url": "\(base)", "web_url": "\(base)", "token_env": "V2EX_TEST_TOKEN",
               "sections": ["node/python", "notifications"]},
              {"id": "v2notoken", "type": "v2ex", "api_url": "\(base)", "web_url": "\(base)", "token_env": "V2EX_TEST_TOKEN_UNSET", "sections": ["notifications"]},
              {"id": "v2bad", "type": "v2ex", "api_url": "\(base)", "web_url": "\(base)", "sections": ["tab/members", "node/blocked", "member/broken"]}
            ]}
            """)
        let refresh = try runner.run(["refresh"], in: directory.path, extraEnvironment: ["V2EX_TEST_TOKEN": token])
        XCTAssertEqual(refresh.status, 2, refresh.stderr)
        XCTAssertFalse(refresh.stderr.contains(token), "the token never appears in output")
        let lines = Set(refresh.stderr.split(separator: "\n").map(String.init))
        // hot, member/alice and topic/700001 share topics and run concurrently: whichever
        // stores a shared topic first counts it as new, the others as unchanged or updated.
        for section in ["hot", "member/alice"] {
            let line = lines.first { $0.hasPrefix("v2ex \(section): ") } ?? ""
            let counts = (line.split(separator: ":").last ?? "").split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            XCTAssertEqual(counts.count, 3, "v2ex \(section): \(refresh.stderr)")
            XCTAssertEqual(counts.reduce(0, +), 3, "the three hot topics, new or already stored: \(line)")
        }
        for expected in [
            "v2ex latest: 0 new, 0 updated, 0 unchanged",
            "v2ex node/swift?pages=2: 4 new, 0 updated, 0 unchanged",
            "v2ex tab/tech: 1 new, 0 updated, 0 unchanged",
            "v2token node/python: 1 new, 0 updated, 0 unchanged",
            "v2token notifications: 1 new, 0 updated, 0 unchanged",
            "v2notoken notifications: failed: notifications needs a token or sign-in: V2EX notifications need a token: create one at https://www.v2ex.com/settings/tokens and set $V2EX_TEST_TOKEN_UNSET",
            "v2bad tab/members: failed: tab/members needs a token or sign-in: V2EX redirected to its sign-in page; this section is login-only or needs a token (token_env)",
            "v2bad node/blocked: failed: blocked by V2EX's CDN (HTTP 403 from \(base)/go/blocked)",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing line: \(expected)\n\(refresh.stderr)")
        }
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("v2bad member/broken: failed: unexpected answer: ") && $0.contains("not JSON") },
            "a truncated JSON body is an error naming the place: \(refresh.stderr)")

        let json = try aggr("timeline", "--format", "ndjson", "--limit", "100", "--no-dedupe")
        let items = try json.stdout.split(separator: "\n").map { try ItemJSONReader.item(from: JSONParser.parse(String($0))) }
        func item(_ provider: String, _ id: String) throws -> Item {
            try XCTUnwrap(items.first { $0.provider == provider && $0.id == id }, "\(provider):\(id)")
        }
        XCTAssertEqual(try item("v2ex", "700001").author?.name, "alice")
        XCTAssertNil(try item("v2ex", "700002").author, "member: null")
        XCTAssertNil(try item("v2ex", "700003").author, "username: \"\"")
        XCTAssertEqual(
            try item("v2ex", "800001").extra["avatar"], "https://cdn.v2ex.com/avatar/0001/0001/1001_normal.png?m=1",
            "protocol-relative made https")
        XCTAssertEqual(try item("v2ex", "800001").extra["node"], "swift")
        XCTAssertEqual(ISOTimestamp.format(try item("v2ex", "800001").published), "2026-11-20T22:30:00Z")
        XCTAssertEqual(try item("v2ex", "800002").metrics.replies, 0, "no count link means no replies")
        XCTAssertNotNil(try? item("v2ex", "800004"), "the second node page is read")
        XCTAssertEqual(
            ISOTimestamp.format(try item("v2ex", "900001").published), "2026-11-20T22:55:00Z", "2 小时 5 分钟前 before the server's Date")
        XCTAssertEqual(try item("v2ex", "reply/9000001").url, "\(base)/t/700001#r_9000001")
        XCTAssertEqual(try item("v2page", "reply/9000001").extra["floor"], "1")
        XCTAssertEqual(try item("v2page", "700001").metrics.views, 512)
        XCTAssertEqual(try item("v2token", "810001").title, "asyncio 还是 trio？")
        let notification = try item("v2token", "notification/7001")
        XCTAssertEqual(notification.kind, .notification)
        XCTAssertEqual(notification.title, "ivan 在回复 热门话题：Swift 还是 Rust？ 时提到了你")
        XCTAssertEqual(notification.url, "\(base)/t/700001#reply42")
        XCTAssertEqual(notification.summary, "@alice 同意")

        let text = try aggr("timeline", "--limit", "100")
        XCTAssertTrue(text.stdout.contains("V2EX › Swift"), "node page title labels the section")
        XCTAssertTrue(text.stdout.contains("V2EX › Python"), "API node title labels the section")
        XCTAssertTrue(text.stdout.contains("V2EX › 技术"), "the current tab labels the section")
    }
}
