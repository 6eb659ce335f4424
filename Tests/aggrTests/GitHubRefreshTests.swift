import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

/// GitHub sections refreshed by the real binary against a loopback GitHub.
final class GitHubRefreshTests: EndToEndTestCase {
    let token = "ghp_testTOKEN0123456789abcdefABCDEF0123"

    func issue(_ number: Int, pull: Bool = false) -> String {
        let pr = pull ? #", "pull_request": {"html_url": "https://github.com/o/r/pull/\#(number)"}"# : ""
        return """
            {"number": \(number), "title": "Issue \(number)", "html_url": "https://github.com/o/r/issues/\(number)", "state": "open",
             "user": {"login": "u\(number)"}, "labels": [{"name": "bug"}], "comments": \(number), "created_at": "2026-11-1\(number % 10)T00:00:00Z",
             "body": "Body \(number)"\(pr)}
            """
    }

    func testGitHubSectionsEndToEnd() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        let releases = try fixture("github/releases.json")
        let commits = try fixture("github/commits.atom")
        let trending = try fixture("github/trending.html")
        let pageOne = "[" + [issue(1), issue(2, pull: true)].joined(separator: ",") + "]"
        let pageTwo = "[" + issue(3) + "]"
        let expected = token
        server.route("/repos/o/r/releases") { request in
            if request.header("If-None-Match") == "\"rel-1\"" { return TestHTTPServer.Response(status: 304) }
            return .text(
                releases, headers: [("ETag", "\"rel-1\""), ("X-RateLimit-Remaining", "4999"), ("X-RateLimit-Reset", "1795222800")])
        }
        server.route("/repos/o/r/issues") { request in
            request.query.contains("page=2")
                ? .text(pageTwo)
                : .text(
                    pageOne,
                    headers: [
                        (
                            "Link",
                            "<\(base)/repos/o/r/issues?state=all&per_page=30&page=2>; rel=\"next\", <\(base)/repos/o/r/issues?page=2>; rel=\"last\""
                        )
                    ])
        }
        server.route("/o/r/commits.atom") { _ in .text(commits, contentType: "application/atom+xml; charset=utf-8") }
        server.route("/trending") { _ in
            .text(trending, contentType: "text/html; charset=utf-8", headers: [("Date", "Sat, 21 Nov 2026 00:00:00 GMT")])
        }
        server.route("/repos/o/limited/events") { _ in
            .text("[]", headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1795224600")])
        }
        server.route("/notifications") { request in
            request.header("Authorization") == "Bearer \(expected)"
                ? .text("[]") : .text(#"{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}"#, status: 401)
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "gh", "type": "github", "api_url": "\(base)", "web_url": "\(base)", "token_env": "GH_TEST_TOKEN",
               "options": {"pages": 2}, "sections": ["releases/o/r", "issues/o/r?state=all", "commits/o/r", "trending?since=daily"]},
              {"id": "ghlimited", "type": "github", "api_url": "\(base)", "web_url": "\(base)", "sections": ["events/o/limited"]},
              {"id": "ghbad", "type": "github", "api_url": "\(base)", "web_url": "\(base)", "token_env": "GH_BAD_TOKEN", "sections": ["notifications"]}
            ]}
            """)
        let environment = ["GH_TEST_TOKEN": token, "GH_BAD_TOKEN": "ghp_wrongWRONG0123456789abcdefABCDEF01"]
        let first = try runner.run(["refresh"], in: directory.path, extraEnvironment: environment)
        XCTAssertEqual(first.status, 2, first.stderr)
        XCTAssertFalse(first.stderr.contains("ghp_"), "no token in output")
        let lines = Set(first.stderr.split(separator: "\n").map(String.init))
        for line in [
            "gh releases/o/r: 2 new, 0 updated, 0 unchanged",
            "gh issues/o/r?state=all: 2 new, 0 updated, 0 unchanged",
            "gh commits/o/r: 1 new, 0 updated, 0 unchanged",
            "gh trending?since=daily: 2 new, 0 updated, 0 unchanged",
            "ghlimited events/o/limited: 0 new, 0 updated, 0 unchanged",
            "ghbad notifications: failed: token rejected (expired or revoked): renew the token in $GH_BAD_TOKEN (HTTP 401 from \(base)/notifications?per_page=30: Bad credentials)",
        ] {
            XCTAssertTrue(lines.contains(line), "missing: \(line)\n\(first.stderr)")
        }
        let sent = server.requests.first { $0.path == "/repos/o/r/releases" }
        XCTAssertEqual(sent?.header("Authorization"), "Bearer \(token)")
        XCTAssertEqual(sent?.header("Accept"), "application/vnd.github+json")
        XCTAssertEqual(sent?.header("X-GitHub-Api-Version"), "2022-11-28")
        XCTAssertEqual(server.requests.filter { $0.path == "/repos/o/r/issues" }.count, 2, "Link rel=next is followed up to pages")

        let json = try aggr("timeline", "--format", "ndjson", "--limit", "50", "--provider", "gh")
        let items = try json.stdout.split(separator: "\n").map { try ItemJSONReader.item(from: JSONParser.parse(String($0))) }
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        XCTAssertEqual(byID["release/3"]?.title, "r v2.0.0-beta")
        XCTAssertEqual(byID["release/3"]?.tags, ["prerelease"])
        XCTAssertNil(byID["release/1"], "drafts are skipped")
        XCTAssertEqual(byID["o/r#3"]?.tags, ["bug"])
        XCTAssertNil(byID["o/r#2"], "pull requests are not issues")
        XCTAssertEqual(byID["o/r@0123456789abcdef0123456789abcdef01234567"]?.title, "Speed up the timeline query")
        XCTAssertEqual(byID["repo/swiftlang/swift-format"]?.metrics, Metrics(stars: 2_871, forks: 241))

        let second = try runner.run(["refresh", "--force"], in: directory.path, extraEnvironment: environment)
        XCTAssertTrue(second.stderr.contains("gh releases/o/r: not modified"), second.stderr)
        XCTAssertEqual(server.requests.last { $0.path == "/repos/o/r/releases" }?.header("If-None-Match"), "\"rel-1\"")
        XCTAssertTrue(
            second.stderr.contains("ghlimited: skipped: rate limited until 2026-11-21T01:30:00Z"),
            "an exhausted budget skips with the reset time, even with --force: \(second.stderr)")
        XCTAssertEqual(server.requests.filter { $0.path == "/repos/o/limited/events" }.count, 1)
    }

    func testAnIssueAndItsCommentsAsASectionAndAsAThreadOnDemand() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        let comments = """
            [{"id": 501, "html_url": "https://github.com/o/r/issues/7#issuecomment-501", "body": "Same here on **6.3**.",
              "user": {"login": "ana", "html_url": "https://github.com/ana"}, "created_at": "2026-11-18T10:00:00Z",
              "updated_at": "2026-11-18T10:00:00Z"},
             {"id": 502, "html_url": "https://github.com/o/r/issues/7#issuecomment-502", "body": "Fixed in main.",
              "user": {"login": "bo"}, "created_at": "2026-11-19T10:00:00Z", "updated_at": "2026-11-19T11:00:00Z"}]
            """
        let single = issue(7)
        server.route("/repos/o/r/issues/7/comments") { _ in .text(comments, headers: [("ETag", "\"c1\"")]) }
        server.route("/repos/o/r/issues/7") { request in
            request.header("If-None-Match") == "\"i1\""
                ? TestHTTPServer.Response(status: 304) : .text(single, headers: [("ETag", "\"i1\"")])
        }
        server.route("/repos/o/r/issues") { _ in .text("[" + single + "]") }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "gh", "type": "github", "api_url": "\(base)", "web_url": "\(base)", "sections": ["issue/o/r/7"]},
              {"id": "list", "type": "github", "api_url": "\(base)", "web_url": "\(base)", "sections": ["issues/o/r"]}
            ]}
            """)
        let first = try aggr("refresh", "gh")
        XCTAssertTrue(first.stderr.contains("gh issue/o/r/7: 3 new, 0 updated, 0 unchanged"), first.stderr)
        let json = try aggr("timeline", "--format", "ndjson", "--provider", "gh", "--all")
        let items = try json.stdout.split(separator: "\n").map { try ItemJSONReader.item(from: JSONParser.parse(String($0))) }
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        XCTAssertEqual(byID["o/r#7"]?.kind, .issue)
        XCTAssertEqual(byID["o/r#7/note/501"]?.title, "Re: Issue 7")
        XCTAssertEqual(byID["o/r#7/note/501"]?.author?.name, "ana")
        XCTAssertEqual(byID["o/r#7/note/502"]?.updated, ISOTimestamp.parse("2026-11-19T11:00:00Z"))

        // The issue answers 304, the comments changed: the issue is read again in full.
        server.route("/repos/o/r/issues/7/comments") { _ in .text("[]") }
        let second = try aggr("refresh", "gh", "--force")
        XCTAssertTrue(second.stderr.contains("gh issue/o/r/7: 0 new, 0 updated, 1 unchanged"), second.stderr)

        // The same issue listed by another provider: its thread is fetched on demand.
        XCTAssertEqual(try aggr("refresh", "list").status, 0)
        server.route("/repos/o/r/issues/7/comments") { _ in .text(comments) }
        let store = try openStore()
        let listed = try XCTUnwrap(try store.item(provider: "list", id: "o/r#7"))
        let configuration = try ConfigLoader(registry: BuiltinProviders.registry).load(path: directory.file("providers.json"))
        let refresher = Refresher(
            configuration: configuration, registry: BuiltinProviders.registry, store: store, http: CurlHTTPClient(), environment: [:])
        let thread = try await refresher.fetchThread(of: listed)
        XCTAssertEqual(thread.map(\.item.id), ["o/r#7/note/501", "o/r#7/note/502"])
        XCTAssertEqual(try store.sections().map(\.key).sorted(), ["issue/o/r/7", "issues/o/r"], "no section for the thread")
    }
}
