import Aggregator
import AggregatorTestSupport
import XCTest

/// Dribbble sections refreshed by the real binary against a loopback Dribbble.
final class DribbbleRefreshTests: EndToEndTestCase {
    func testSectionsAndADetailsPassCutShortByA429() throws {
        guard let shots = SharedFixtures.bytes("dribbble/v2-user-shots.json"), let user = SharedFixtures.bytes("dribbble/v2-user.json"),
            let projects = SharedFixtures.bytes("dribbble/v2-user-projects.json"),
            let notFound = SharedFixtures.bytes("dribbble/v2-error-not-found.json")
        else { throw XCTSkip("../shared/fixtures/dribbble not found beside this checkout") }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        let popular = try fixture("dribbble/popular.html")
        let ana = try fixture("dribbble/user-ana.html")
        let shotPage = try fixture("dribbble/shot-9100001.html")
        let token = "dribbble-test-token-42"
        let (shotsText, userText) = (String(decoding: shots, as: UTF8.self), String(decoding: user, as: UTF8.self))
        let (projectsText, notFoundText) = (String(decoding: projects, as: UTF8.self), String(decoding: notFound, as: UTF8.self))
        server.route("/user") { request in
            guard request.header("Authorization") == "Bearer \(token)" else {
                return .text(#"{"message": "Bad credentials"}"#, status: 401)
            }
            if request.path == "/user/shots" { return .text(shotsText) }
            if request.path == "/user/projects" { return .text(projectsText) }
            return .text(userText)
        }
        server.route("/missing/user") { _ in .text(userText) }
        server.route("/missing/user/projects") { _ in .text(notFoundText, status: 404) }
        server.route("/shots/popular") { _ in .text(popular, contentType: "text/html", headers: [("Date", "Sat, 21 Nov 2026 00:00:00 GMT")])
        }
        server.route("/ana") { _ in .text(ana, contentType: "text/html") }
        server.route("/search/shots/recent") { _ in .text(popular, contentType: "text/html") }
        server.route("/shots/9100001") { _ in .text(shotPage, contentType: "text/html") }
        server.route("/shots/9100002") { _ in .text("slow down", status: 429, headers: [("Retry-After", "7200")]) }
        server.route("/shots/9100003") { _ in .text(shotPage, contentType: "text/html") }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "dribbble", "type": "dribbble", "api_url": "\(base)", "web_url": "\(base)", "token_env": "DRIBBBLE_TEST_TOKEN",
               "sections": ["shots", "projects", "user/ana", "search/weather"]},
              {"id": "popular", "type": "dribbble", "api_url": "\(base)", "web_url": "\(base)",
               "sections": ["popular?timeframe=week"], "options": {"details": true, "max_details": 3}},
              {"id": "badtoken", "type": "dribbble", "api_url": "\(base)", "web_url": "\(base)", "token_env": "DRIBBBLE_BAD", "sections": ["shots"]},
              {"id": "missing", "type": "dribbble", "api_url": "\(base)/missing", "web_url": "\(base)", "token_env": "DRIBBBLE_TEST_TOKEN", "sections": ["projects"]},
              {"id": "notoken", "type": "dribbble", "api_url": "\(base)", "web_url": "\(base)", "token_env": "DRIBBBLE_UNSET", "sections": ["shots"]}
            ]}
            """)
        let environment = ["DRIBBBLE_TEST_TOKEN": token, "DRIBBBLE_BAD": "wrong-token-0000"]
        let first = try runner.run(["refresh"], in: directory.path, extraEnvironment: environment)
        XCTAssertEqual(first.status, 2, first.stderr)
        XCTAssertFalse(first.stderr.contains(token) || first.stderr.contains("wrong-token"), "tokens never printed")
        let lines = Set(first.stderr.split(separator: "\n").map(String.init))
        for line in [
            "dribbble shots: 1 new, 0 updated, 0 unchanged",
            "dribbble projects: 1 new, 0 updated, 0 unchanged",
            "popular popular?timeframe=week: 3 new, 0 updated, 0 unchanged",
            "badtoken shots: failed: token rejected (expired or revoked): renew the token in $DRIBBBLE_BAD (HTTP 401 from \(base)/user: Bad credentials)",
            "missing projects: failed: Dribbble: Not found (HTTP 404 from \(base)/missing/user/projects)",
            "notoken shots: failed: shots needs a token or sign-in: Dribbble's API needs an OAuth token: set $DRIBBBLE_UNSET",
        ] {
            XCTAssertTrue(lines.contains(line), "missing: \(line)\n\(first.stderr)")
        }
        // user/ana and search/weather share shot 9100001 and run concurrently: either stores it first.
        XCTAssertTrue(lines.contains { $0.hasPrefix("dribbble user/ana: ") && !$0.contains("failed") }, first.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("dribbble search/weather: ") && !$0.contains("failed") }, first.stderr)
        XCTAssertEqual(server.requests.filter { $0.path == "/shots/9100003" }.count, 0, "a 429 ends the details pass")

        let json = try aggr("timeline", "--format", "ndjson", "--provider", "popular")
        let items = try json.stdout.split(separator: "\n").map { try ItemJSONReader.item(from: JSONParser.parse(String($0))) }
        XCTAssertEqual(items.count, 3, "everything the list gave is stored")
        let detailed = try XCTUnwrap(items.first { $0.id == "shot/9100001" })
        XCTAssertEqual(detailed.tags, ["weather", "app", "ios", "ui"])
        XCTAssertEqual(detailed.metrics.likes, 1_250)
        XCTAssertEqual(detailed.extra["saves"], "310")
        XCTAssertEqual(ISOTimestamp.format(detailed.published), "2026-11-17T08:30:00Z")
        XCTAssertEqual(detailed.image, "\("https://cdn.dribbble.com/users/11/screenshots/9100001/weather")_1x.png")
        XCTAssertEqual(items.first { $0.id == "shot/9100002" }?.metrics.likes, 987, "the list's counts stay when details fail")
        let state = try openStore().providerStates()["popular"]
        XCTAssertEqual(state?.waitReason, .rateLimit, "a Retry-After longer than the interval backs the provider off")
        XCTAssertNil(state?.lastError)
    }
}
