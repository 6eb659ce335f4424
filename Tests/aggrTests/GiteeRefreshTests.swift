import Aggregator
import AggregatorTestSupport
import XCTest

/// Gitee sections refreshed by the real binary against a loopback Gitee (API and web pages).
final class GiteeRefreshTests: EndToEndTestCase {
    func testGiteeEndToEndWithRefusals() throws {
        guard let issues = SharedFixtures.bytes("gitee/repos-issues-list-kit101.json"),
            let tags = SharedFixtures.bytes("gitee/repos-tags-kit101.json"),
            let comments = SharedFixtures.bytes("gitee/repos-issues-comments-kit101.json")
        else {
            throw XCTSkip("../shared/fixtures/gitee not found beside this checkout")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        let releases =
            #"[{"id": 11, "tag_name": "v1.0", "name": "第一版", "body": "**发布**", "prerelease": false, "author": {"login": "kit101"}, "created_at": "2021-09-30T10:00:00+08:00"}]"#
        server.route("/repos/kit101/drone-yml-test/issues") { _ in .text(String(decoding: issues, as: UTF8.self)) }
        server.route("/repos/kit101/drone-yml-test/releases") { _ in .text(releases) }
        server.route("/repos/kit101/drone-yml-test/tags") { _ in .text(String(decoding: tags, as: UTF8.self)) }
        server.route("/repos/kit101/drone-yml/issues/I4CD5P") { _ in
            .text(
                #"{"number": "I4CD5P", "title": "test issue 1", "body": "", "html_url": "https://gitee.com/kit101/drone-yml/issues/I4CD5P", "state": "open", "created_at": "2021-09-29T10:58:00+08:00", "issue_state": "待办的", "issue_type": "任务", "comments": 1}"#
            )
        }
        server.route("/repos/kit101/drone-yml/issues/I4CD5P/comments") { _ in .text(String(decoding: comments, as: UTF8.self)) }
        let gitee = try fixture("gitee/events.json")
        server.route("/repos/dromara/hutool/events") { _ in .text(gitee) }
        let search = try fixture("gitee/search.json")
        server.route("/search/repositories") { _ in .text(search) }
        let (recommend, latest) = (try fixture("gitee/explore-recommend.html"), try fixture("gitee/explore-latest.html"))
        server.route("/explore/all") { request in
            if request.query.contains("order=starred") {
                return .text("<html><body>405 Not Allowed</body></html>", status: 405, contentType: "text/html")
            }
            if request.query.contains("order=latest") { return .text(latest, contentType: "text/html") }
            if request.query.contains("page=2") {
                return .text(
                    #"<html><body><div id="git-discover-page"><div class="items explore-repo__list"></div></div></body></html>"#,
                    contentType: "text/html")
            }
            return .text(
                recommend, contentType: "text/html",
                headers: [("Date", "Sat, 21 Nov 2026 00:00:00 GMT")])
        }
        server.route("/repos/private/repo/releases") { _ in .text(#"{"message": "Not Found Project"}"#, status: 403) }
        server.route("/repos/spent/repo/releases") { _ in
            .text(
                #"{"message": "Rate Limit Exceeded"}"#, status: 403,
                headers: [("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1795222800")])
        }
        server.route("/repos/busy/repo/releases") { _ in
            .text(#"{"message": "访问过于频繁"}"#, status: 429, headers: [("Retry-After", "7200"), ("X-RateLimit-Remaining", "0")])
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "gitee", "type": "gitee", "api_url": "\(base)", "web_url": "\(base)", "token_env": "GITEE_TEST_TOKEN",
               "options": {"pages": 2},
               "sections": ["issues/kit101/drone-yml-test?state=all", "releases/kit101/drone-yml-test", "tags/kit101/drone-yml-test",
                            "issue/kit101/drone-yml/I4CD5P", "events/dromara/hutool", "search/hutool?sort=stars_count",
                            "featured", "popular", "latest"]},
              {"id": "private", "type": "gitee", "api_url": "\(base)", "sections": ["releases/private/repo"]},
              {"id": "spent", "type": "gitee", "api_url": "\(base)", "sections": ["releases/spent/repo"]},
              {"id": "busy", "type": "gitee", "api_url": "\(base)", "sections": ["releases/busy/repo"]}
            ]}
            """)
        let secret = "gitee-secret-123456"
        let result = try runner.run(["refresh"], in: directory.path, extraEnvironment: ["GITEE_TEST_TOKEN": secret])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(result.stderr.contains(secret))
        let lines = Set(result.stderr.split(separator: "\n").map(String.init))
        for line in [
            "gitee issues/kit101/drone-yml-test?state=all: 2 new, 0 updated, 0 unchanged",
            "gitee releases/kit101/drone-yml-test: 1 new, 0 updated, 0 unchanged",
            "gitee tags/kit101/drone-yml-test: 4 new, 0 updated, 0 unchanged",
            "gitee issue/kit101/drone-yml/I4CD5P: 2 new, 0 updated, 0 unchanged",
            "gitee events/dromara/hutool: 4 new, 0 updated, 0 unchanged",
            "gitee search/hutool?sort=stars_count: 2 new, 0 updated, 0 unchanged",
            "gitee featured: 4 new, 0 updated, 0 unchanged",
            "gitee latest: 2 new, 0 updated, 0 unchanged",
            "gitee popular: failed: blocked by Gitee's web firewall (HTTP 405 from \(base)/explore/all?order=starred&page=1); it may want a browser session for the explore pages, while the API sections (releases, issues, search…) still work",
            "private releases/private/repo: failed: releases/private/repo needs a token or sign-in: Gitee refused the request (HTTP 403 from \(base)/repos/private/repo/releases?page=1&per_page=20): Not Found Project; check $GITEE_TOKEN",
            "spent releases/spent/repo: failed: rate limited by \(base)/repos/spent/repo/releases?page=1&per_page=20 until 2026-11-21T01:00:00Z: Rate Limit Exceeded",
            "busy releases/busy/repo: failed: rate limited by \(base)/repos/busy/repo/releases?page=1&per_page=20 until 2026-11-21T02:00:00Z: 访问过于频繁",
        ] {
            XCTAssertTrue(lines.contains(line), "missing: \(line)\n\(result.stderr)")
        }

        let sent = server.requests
        let apiCalls = sent.filter { request in
            !request.path.hasPrefix("/explore") && !["private", "spent", "busy"].contains { request.path.hasPrefix("/repos/\($0)/") }
        }
        XCTAssertFalse(apiCalls.isEmpty)
        XCTAssertTrue(apiCalls.allSatisfy { $0.query.contains("access_token=\(secret)") }, "the token travels as access_token")
        XCTAssertTrue(sent.filter { $0.path.hasPrefix("/explore") }.allSatisfy { !$0.query.contains("access_token") }, "never to web pages")
        XCTAssertEqual(
            sent.filter { $0.path == "/explore/all" && $0.query.contains("recommend") }.map(\.query),
            ["order=recommend&page=1", "order=recommend&page=2"], "the next page is read while one is linked, up to pages")
        XCTAssertEqual(
            sent.filter { $0.path == "/explore/all" && $0.query.contains("latest") }.map(\.query), ["order=latest&page=1"],
            "no next link: one page")
        XCTAssertTrue(
            sent.contains { $0.path == "/search/repositories" && $0.query.hasPrefix("q=hutool&sort=stars_count&order=desc&page=1") })

        let store = try openStore()
        let state = try store.providerStates()
        XCTAssertEqual(state["busy"]?.waitReason, .rateLimit)
        XCTAssertEqual(state["spent"]?.waitReason, .rateLimit)
        XCTAssertNil(
            state["private"]?.waitReason == .rateLimit ? "rate limited" : nil, "a refusal without rate-limit headers is no rate limit")
        XCTAssertNil(try storedBytes().range(of: Data(secret.utf8)), "the token is not stored")

        let json = try aggr("timeline", "--format", "ndjson", "--provider", "gitee", "--limit", "100")
        XCTAssertTrue(json.stdout.contains(#""id":"release/11""#))
        XCTAssertTrue(json.stdout.contains(#""tags":["invalid","已完成","任务"]"#))
        XCTAssertTrue(
            json.stdout.contains(#""title":"Re: test issue 1","url":"\#(base)/kit101/drone-yml/issues/I4CD5P#note_6877445""#), json.stdout)
        XCTAssertFalse(json.stdout.contains("\u{1B}"))
        let featured = try aggr("timeline", "--section", "featured", "--format", "tsv")
        XCTAssertEqual(
            featured.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false)[6] }
                .prefix(2),
            ["dromara/Sa-Token", "若依/RuoYi"], featured.stdout)
        let second = try runner.run(["refresh", "gitee", "--force"], in: directory.path, extraEnvironment: ["GITEE_TEST_TOKEN": secret])
        XCTAssertTrue(second.stderr.contains("gitee featured: not modified"), second.stderr)
    }

    func testUserWithoutALoginReadsTheTokenOwner() throws {
        guard let me = SharedFixtures.bytes("gitee/user-kit101.json") else {
            throw XCTSkip("../shared/fixtures/gitee not found beside this checkout")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/user") { _ in .text(String(decoding: me, as: UTF8.self)) }
        let events = try fixture("gitee/events.json")
        server.route("/users/kit101/events") { _ in .text(events) }
        directory.write(
            "providers.json",
            #"{"providers": [{"id": "gitee", "type": "gitee", "api_url": "\#(server.baseURL)", "sections": ["user"]}]}"#)
        let anonymous = try aggr("refresh")
        XCTAssertEqual(anonymous.status, 1)
        XCTAssertTrue(
            anonymous.stderr.contains(
                "gitee user: failed: user needs a token or sign-in: without a login, `user` reads the token owner's events; set $GITEE_TOKEN or write user/<login>"
            ), anonymous.stderr)
        XCTAssertTrue(server.requests.isEmpty, "nothing is asked without a token")
        let recordings = directory.file("recordings")
        let signed = try runner.run(
            ["refresh", "--force", "--record", recordings], in: directory.path, extraEnvironment: ["GITEE_TOKEN": "owner-token-987"])
        XCTAssertEqual(signed.status, 0, signed.stderr)
        XCTAssertTrue(signed.stderr.contains("gitee user: 4 new, 0 updated, 0 unchanged"), signed.stderr)
        XCTAssertEqual(server.requests.map(\.path), ["/user", "/users/kit101/events"])
        let files = try FileManager.default.subpathsOfDirectory(atPath: recordings).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(files.count, 2)
        for file in files {
            let text = try String(contentsOfFile: "\(recordings)/\(file)", encoding: .utf8)
            XCTAssertFalse(text.contains("owner-token-987"), file)
            XCTAssertTrue(text.contains("access_token=REDACTED"), file)
        }
        let sections = try aggr("timeline", "--format", "json")
        XCTAssertTrue(sections.stdout.contains("yuki_dev starred dromara/hutool"), sections.stdout)
    }
}
