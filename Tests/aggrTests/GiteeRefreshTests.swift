import Aggregator
import AggregatorTestSupport
import XCTest

/// Gitee sections refreshed by the real binary against a loopback Gitee.
final class GiteeRefreshTests: EndToEndTestCase {
    func testGiteeEndToEndWithRefusals() throws {
        guard let issues = SharedFixtures.bytes("gitee/repos-issues-list-kit101.json") else {
            throw XCTSkip("../shared/fixtures/gitee not found beside this checkout")
        }
        let issuesText = String(decoding: issues, as: UTF8.self)
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        let releases =
            #"[{"id": 11, "tag_name": "v1.0", "name": "第一版", "body": "**发布**", "prerelease": false, "author": {"login": "kit101"}, "created_at": "2021-09-30T10:00:00+08:00"}]"#
        server.route("/repos/kit101/drone-yml-test/issues") { _ in .text(issuesText) }
        server.route("/repos/kit101/drone-yml-test/releases") { _ in .text(releases) }
        server.route("/repos/private/repo/releases") { _ in .text(#"{"message": "Not Found Project"}"#, status: 403) }
        server.route("/repos/busy/repo/releases") { _ in
            .text(#"{"message": "访问过于频繁"}"#, status: 429, headers: [("Retry-After", "7200"), ("X-RateLimit-Remaining", "0")])
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "gitee", "type": "gitee", "api_url": "\(base)", "web_url": "https://gitee.com", "token_env": "GITEE_TEST_TOKEN",
               "sections": ["issues/kit101/drone-yml-test?state=all", "releases/kit101/drone-yml-test"]},
              {"id": "private", "type": "gitee", "api_url": "\(base)", "sections": ["releases/private/repo"]},
              {"id": "busy", "type": "gitee", "api_url": "\(base)", "sections": ["releases/busy/repo"]}
            ]}
            """)
        let result = try runner.run(["refresh"], in: directory.path, extraEnvironment: ["GITEE_TEST_TOKEN": "gitee-secret-123456"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(result.stderr.contains("gitee-secret-123456"))
        let lines = Set(result.stderr.split(separator: "\n").map(String.init))
        for line in [
            "gitee issues/kit101/drone-yml-test?state=all: 2 new, 0 updated, 0 unchanged",
            "gitee releases/kit101/drone-yml-test: 1 new, 0 updated, 0 unchanged",
            "private releases/private/repo: failed: releases/private/repo needs a token or sign-in: Gitee refused the request (HTTP 403 from \(base)/repos/private/repo/releases?page=1&per_page=20): Not Found Project; check $GITEE_TOKEN",
        ] {
            XCTAssertTrue(lines.contains(line), "missing: \(line)\n\(result.stderr)")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("busy releases/busy/repo: failed: rate limited by ") }, result.stderr)
        let sent = server.requests.first { $0.path == "/repos/kit101/drone-yml-test/issues" }
        XCTAssertTrue(sent?.query.contains("access_token=gitee-secret-123456") == true, "the token travels as access_token")
        let state = try Store(path: directory.file("aggr.sqlite")).providerStates()
        XCTAssertEqual(state["busy"]?.waitReason, .rateLimit)
        XCTAssertEqual(
            state["busy"]?.lastError?.contains("访问过于频繁") == true || state["busy"]?.lastError?.contains("rate limited") == true, true)
        let json = try aggr("timeline", "--format", "ndjson", "--provider", "gitee")
        XCTAssertTrue(json.stdout.contains(#""id":"release/11""#))
        XCTAssertTrue(json.stdout.contains(#""tags":["invalid","已完成","任务"]"#))
    }
}
