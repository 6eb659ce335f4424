import Aggregator
import AggregatorTestSupport
import XCTest

/// Acting upstream from the CLI, against loopback sites that check what V2EX, GitHub and
/// Gitee check: the session cookie, `once`, `Referer`, the token; and answer as they do.
final class ActionCommandTests: EndToEndTestCase {
    var v2ex: V2EXSiteFake!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let site = try V2EXSiteFake() else { throw XCTSkip("../shared/fixtures is not beside the repository") }
        v2ex = site
    }

    override func tearDown() {
        v2ex?.stop()
        super.tearDown()
    }

    /// A V2EX entry on the fake (session cookie from $V2EX_COOKIE) with the topic and one
    /// reply stored.
    func writeV2EX(_ extra: String = "") throws {
        directory.write("providers.json", v2ex.providersJSON(extra))
        let reply =
            #"{"provider":"v2ex","section":"hot","id":"reply/16535109","kind":"reply","title":"Re: 重磅更新！","url":"\#(v2ex.baseURL)/t/1147555#r_16535109","author":"CEBBCAT","published":"2025-07-25T03:52:22Z","summary":"AI","extra":{"topic":"1147555"}}"#
        XCTAssertEqual(try aggr("import", "-", input: v2ex.topicLine + "\n" + reply).status, 0)
    }

    var signedIn: [String: String] { ["V2EX_COOKIE": v2ex.cookie] }

    func testARepliedTextArrivesByteForByteAndIsStoredInTheThread() throws {
        try writeV2EX()
        let text = "多行回复：SQLite & PostgreSQL = 100% 好用?\n第二行 <b>不是标签</b> + emoji 🎉\n\n  indented"
        let reply = try aggr("reply", "v2ex:1147555", "-m", text, environment: signedIn)
        XCTAssertEqual(reply.status, 0, reply.stderr)
        XCTAssertTrue(reply.stdout.contains("v2ex: replied to topic 1147555"), reply.stdout)
        XCTAssertEqual(v2ex.postedReplies, [text], "sent exactly as typed")
        let write = try XCTUnwrap(v2ex.received.first)
        XCTAssertEqual(write.form["once"], V2EXSiteFake.once)
        XCTAssertEqual(write.referer, "\(v2ex.baseURL)/t/1147555")
        // The new reply is in the thread, as the topic page showed it.
        let stored = try aggr("timeline", "--all", "--format", "ndjson", "--limit", "100").stdout
        let posted = try XCTUnwrap(stored.split(separator: "\n").first { $0.contains("indented") }, stored)
        XCTAssertTrue(posted.contains(#""kind":"reply""#) && posted.contains(#""topic":"1147555""#), String(posted))
        XCTAssertTrue(stored.contains("第二行 <b>不是标签</b>"), "stored as text, not markup")
        XCTAssertFalse(stored.contains("SECRETSESSIONVALUE"), "the session stays out of the store's output")
        let database = try storedBytes()
        XCTAssertNotNil(database.range(of: Data("不是标签".utf8)), "the look is at what was stored")
        XCTAssertNil(database.range(of: Data("SECRETSESSIONVALUE".utf8)), "and out of the database")

        // Empty text sends nothing; a dry run sends nothing and shows the request, cookie redacted.
        let empty = try aggr("reply", "v2ex:1147555", "-m", "  \n", environment: signedIn)
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("the reply is empty"), empty.stderr)
        let dry = try aggr("reply", "v2ex:1147555", "-m", "试一下", "--dry-run", environment: signedIn)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("dry run: nothing was sent"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("POST \(v2ex.baseURL)/t/1147555"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("Cookie: REDACTED"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("content=%E8%AF%95%E4%B8%80%E4%B8%8B&once=<once>"), dry.stdout)
        XCTAssertFalse(dry.stdout.contains("SECRETSESSIONVALUE"))
        XCTAssertEqual(v2ex.received.count, 1, "neither sent anything")

        // Piped text and the editor.
        let piped = try aggr("reply", "v2ex:1147555", input: "从标准输入\n", environment: signedIn)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let editor = directory.file("editor.sh")
        directory.write("editor.sh", "#!/bin/sh\nprintf '编辑器里写的\\n' > \"$1\"\n")
        chmod(editor, 0o755)
        let edited = try aggr("reply", "v2ex:1147555", "--edit", environment: signedIn.merging(["EDITOR": editor]) { $1 })
        XCTAssertEqual(edited.status, 0, edited.stderr)
        let cancel = directory.file("cancel.sh")
        directory.write("cancel.sh", "#!/bin/sh\n: > \"$1\"\n")
        chmod(cancel, 0o755)
        let cancelled = try aggr("reply", "v2ex:1147555", "--edit", environment: signedIn.merging(["EDITOR": cancel]) { $1 })
        XCTAssertEqual(cancelled.status, 1)
        XCTAssertEqual(v2ex.postedReplies, [text, "从标准输入", "编辑器里写的"])
    }

    func testThanksAskFirstFavouritesToggleAndNothingElseIsOffered() throws {
        try writeV2EX()
        let unasked = try aggr("thank", "v2ex:1147555", environment: signedIn)
        XCTAssertEqual(unasked.status, 1)
        XCTAssertTrue(unasked.stderr.contains("copper coins") && unasked.stderr.contains("--yes"), unasked.stderr)
        XCTAssertTrue(v2ex.received.isEmpty, "nothing is sent without a yes")
        let thanked = try aggr("thank", "v2ex:1147555", "--yes", environment: signedIn)
        XCTAssertEqual(thanked.status, 0, thanked.stderr)
        XCTAssertTrue(thanked.stdout.contains("thanked topic/1147555"), thanked.stdout)
        let reply = try aggr("thank", "v2ex:reply/16535109", "-y", environment: signedIn)
        XCTAssertEqual(reply.status, 0, reply.stderr)
        XCTAssertEqual(v2ex.received.map(\.path), ["/thank/topic/1147555", "/thank/reply/16535109"])
        XCTAssertEqual(v2ex.received.map(\.query), ["once=84538", "once=84538"])
        XCTAssertEqual(try aggr("thank", "v2ex:1147555", "--yes", environment: signedIn).stdout, "v2ex: already thanked through aggr\n")

        XCTAssertEqual(try aggr("fav", "v2ex:1147555", environment: signedIn).stdout, "v2ex: favourited topic 1147555\n")
        XCTAssertTrue(v2ex.isFavourited)
        XCTAssertTrue(try aggr("show", "v2ex:1147555").stdout.contains("you thanked · you favourited"))
        XCTAssertEqual(try aggr("fav", "v2ex:1147555", "--undo", environment: signedIn).stdout, "v2ex: unfavourited topic 1147555\n")
        XCTAssertFalse(v2ex.isFavourited)
        let onReply = try aggr("fav", "v2ex:reply/16535109", environment: signedIn)
        XCTAssertEqual(onReply.status, 1)
        XCTAssertTrue(onReply.stderr.contains("favourite applies to topic items, and this one is a reply"), onReply.stderr)

        let like = try aggr("like", "v2ex:1147555", environment: signedIn)
        XCTAssertEqual(like.status, 1)
        XCTAssertTrue(like.stderr.contains("V2EX has no likes"), like.stderr)
        let star = try aggr("star", "v2ex:1147555", environment: signedIn)
        XCTAssertTrue(star.stderr.contains("V2EX has no stars: favourite the topic instead"), star.stderr)
        let types = try aggr("types", "v2ex").stdout
        XCTAssertTrue(types.contains("thank") && types.contains("asks first") && types.contains("not offered: V2EX has no likes"), types)
    }

    func testSignedOutExpiredForbiddenAndRateLimitedAreSaidAndRolledBack() throws {
        try writeV2EX()
        let none = try aggr("reply", "v2ex:1147555", "-m", "hi")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("$V2EX_COOKIE"), none.stderr)
        let stale = try aggr("reply", "v2ex:1147555", "-m", "hi", environment: ["V2EX_COOKIE": "A2=expired-session-cookie-value"])
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.stderr.contains("signed out") && stale.stderr.contains("$V2EX_COOKIE"), stale.stderr)
        XCTAssertFalse(stale.stderr.contains("expired-session-cookie-value"), "the cookie is never shown")

        v2ex.mode = .expiredOnce
        let expired = try aggr("reply", "v2ex:1147555", "-m", "hi", environment: signedIn)
        XCTAssertEqual(expired.status, 1)
        XCTAssertTrue(expired.stderr.contains("V2EX refused the reply: 你的回复操作已过期，请重新提交"), expired.stderr)

        v2ex.mode = .forbidden
        let forbidden = try aggr("fav", "v2ex:1147555", environment: signedIn)
        XCTAssertEqual(forbidden.status, 1)
        XCTAssertTrue(forbidden.stderr.contains("(403)"), forbidden.stderr)
        XCTAssertEqual(
            try aggr("fav", "v2ex:1147555", environment: signedIn).status, 1, "the failed favourite was rolled back, so it is tried again")

        v2ex.mode = .rateLimited(retryAfter: 120)
        let limited = try aggr("thank", "v2ex:1147555", "--yes", environment: signedIn)
        XCTAssertEqual(limited.status, 1)
        XCTAssertTrue(limited.stderr.contains("rate-limiting (429), retry after 120 s"), limited.stderr)
        v2ex.mode = .normal
        let retried = try aggr("thank", "v2ex:1147555", "--yes", environment: signedIn)
        XCTAssertEqual(retried.stdout, "v2ex: thanked topic/1147555\n", "a refused thank was not kept as done: \(retried.stderr)")
        XCTAssertEqual(v2ex.postedReplies, [])
    }

    func testTheDailyCheckinIsClaimedOnceADayFromTheCLIAndTheWatch() throws {
        try writeV2EX(#", "checkin": true"#)
        let first = try aggr("checkin", environment: signedIn)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "v2ex: claimed the daily reward\n12 days in a row\n")
        XCTAssertTrue(v2ex.rewardClaimed)
        let again = try aggr("checkin", "v2ex", environment: signedIn)
        XCTAssertTrue(again.stdout.contains("already claimed today"), again.stdout)
        XCTAssertEqual(v2ex.received.count, 1, "the second asked nothing: the day is remembered")
        let forced = try aggr("checkin", "--force", environment: signedIn)
        XCTAssertTrue(forced.stdout.contains("already claimed today"), forced.stdout)
        XCTAssertEqual(v2ex.received.count, 1, "the site said it was claimed: no redeem sent")

        // The watch claims once per site day across restarts: this database claimed today already.
        for _ in 0..<2 {
            let watch = try aggr("watch", "--once", environment: signedIn)
            XCTAssertFalse(watch.stderr.contains("check-in v2ex: claimed"), watch.stderr)
        }
        XCTAssertEqual(v2ex.received.count, 1)
    }

    func testTheWatchClaimsTheCheckinOnceAcrossRestarts() throws {
        try writeV2EX(#", "checkin": true"#)
        // A rule with "checkins": true is told, through its channels (here a command).
        let told = directory.file("told.txt")
        let config = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        directory.write(
            "providers.json",
            String(config.dropLast(2))
                + #"], "notify": [{"name": "daily", "when": "kind = release", "checkins": true, "command": ["sh", "-c", "cat >> \#(told)"]}]}"#
        )
        let first = try aggr("watch", "--once", environment: signedIn)
        XCTAssertTrue(first.stderr.contains("check-in v2ex: claimed the daily reward (12 days in a row)"), first.stderr)
        let notice = (try? String(contentsOfFile: told, encoding: .utf8)) ?? ""
        XCTAssertTrue(notice.contains("v2ex daily check-in: claimed the daily reward (12 days in a row)"), notice + first.stderr)
        let second = try aggr("watch", "--once", environment: signedIn)
        XCTAssertFalse(second.stderr.contains("check-in v2ex"), second.stderr)
        XCTAssertEqual(v2ex.received.map(\.path), ["/mission/daily/redeem"], "claimed once")

        directory.write(
            "providers.json",
            try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
                .replacingOccurrences(of: #""type": "v2ex""#, with: #""type": "feed", "options": {"url": "http://127.0.0.1:9/x"}"#)
                .replacingOccurrences(of: #""sections": ["hot"]"#, with: #""sections": ["feed"]"#)
                .replacingOccurrences(of: #", "cookie_env": "V2EX_COOKIE""#, with: ""))
        let refused = try aggr("providers")
        XCTAssertEqual(refused.status, 78)
        XCTAssertTrue(refused.stderr.contains("checkin") && refused.stderr.contains("no daily check-in"), refused.stderr)
    }

    func testForgeStarsCommentsAndReactionsCarryTheTokenAndNeverShowIt() throws {
        let api = try TestHTTPServer()
        defer { api.stop() }
        let token = "ghp_SECRETTOKEN0123456789"
        let bearer = "Bearer \(token)"
        api.route("/user/starred/octo/app") { request in
            guard request.header("Authorization") == bearer else { return .text("{\"message\":\"Requires authentication\"}", status: 401) }
            return request.method == "DELETE"
                ? .text("{\"message\":\"Resource not accessible by personal access token\"}", status: 403)
                : TestHTTPServer.Response(status: 204)
        }
        api.route("/repos/octo/app/issues/5/comments") { request in
            guard request.header("Authorization") == bearer, request.method == "POST" else { return .text("{}", status: 401) }
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])?["body"] ?? ""
            let escaped = String(data: try! JSONSerialization.data(withJSONObject: [body]), encoding: .utf8)!.dropFirst().dropLast()
            return .text(
                #"{"id": 777, "body": \#(escaped), "html_url": "https://github.com/octo/app/issues/5#issuecomment-777", "user": {"login": "me"}, "created_at": "2026-11-25T01:00:00Z", "updated_at": "2026-11-25T01:00:00Z"}"#,
                status: 201)
        }
        api.route("/repos/octo/app/issues/5/reactions") { request in
            .text(#"{"id": 1, "content": "heart"}"#, status: request.header("Authorization") == bearer ? 201 : 401)
        }
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "gh", "type": "github", "api_url": "\(api.baseURL)", "sections": ["issues/octo/app"]}]}
            """)
        let issue =
            #"{"provider":"gh","section":"issues/octo/app","id":"octo/app#5","kind":"issue","title":"Crash on start","url":"https://github.com/octo/app/issues/5","published":"2026-11-20T10:00:00Z","summary":"","metrics":{"comments":0},"extra":{"repo":"octo/app","number":"5"}}"#
        XCTAssertEqual(try aggr("import", "-", input: issue).status, 0)
        let environment = ["GITHUB_TOKEN": token]

        let noToken = try aggr("star", "gh:octo/app#5")
        XCTAssertEqual(noToken.status, 1)
        XCTAssertTrue(noToken.stderr.contains("needs a GitHub token in $GITHUB_TOKEN"), noToken.stderr)
        XCTAssertEqual(try aggr("star", "gh:octo/app#5", environment: environment).stdout, "gh: starred octo/app\n")
        let unstar = try aggr("star", "gh:octo/app#5", "--undo", environment: environment)
        XCTAssertEqual(unstar.status, 1)
        XCTAssertTrue(unstar.stderr.contains("(403)") && unstar.stderr.contains("$GITHUB_TOKEN may lack the scope"), unstar.stderr)
        XCTAssertFalse((unstar.stderr + unstar.stdout).contains(token))

        let text = "Same here on 1.2 — 复现了\n```\nstack\n```"
        let comment = try aggr("reply", "gh:octo/app#5", "-m", text, environment: environment)
        XCTAssertEqual(comment.status, 0, comment.stderr)
        XCTAssertTrue(comment.stdout.contains("commented on octo/app#5"), comment.stdout)
        XCTAssertTrue(comment.stdout.contains("stored"), comment.stdout)
        let thread = try aggr("timeline", "--all", "--format", "ndjson").stdout
        XCTAssertTrue(thread.contains("octo/app#5/note/777") && thread.contains("复现了"), thread)
        XCTAssertEqual(try aggr("react", "gh:octo/app#5", "heart", environment: environment).stdout, "gh: reacted heart to octo/app#5\n")
        let bad = try aggr("react", "gh:octo/app#5", "thumbsup", environment: environment)
        XCTAssertTrue(bad.stderr.contains("GitHub reactions are +1, -1"), bad.stderr)
        let dry = try aggr("star", "gh:octo/app#5", "--dry-run", environment: environment)
        XCTAssertTrue(
            dry.stdout.contains("PUT \(api.baseURL)/user/starred/octo/app") && dry.stdout.contains("Authorization: REDACTED"), dry.stdout)
        XCTAssertFalse(dry.stdout.contains(token))
        XCTAssertEqual(api.requests.filter { $0.path == "/user/starred/octo/app" }.count, 2, "the dry run sent nothing")
    }

    func testGiteeStarsAndCommentsWithTheTokenInTheQueryAndDribbbleSaysWhyItCannotLike() throws {
        let api = try TestHTTPServer()
        defer { api.stop() }
        let token = "gitee0SECRETTOKEN99"
        api.route("/api/v5/user/starred/kit101/drone-yml-test") { request in
            request.query == "access_token=\(token)" && request.method == "PUT"
                ? TestHTTPServer.Response(status: 204) : .text("{}", status: 401)
        }
        api.route("/api/v5/repos/kit101/drone-yml-test/issues/I4CE7W/comments") { request in
            guard request.query == "access_token=\(token)", request.method == "POST" else { return .text("{}", status: 401) }
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])?["body"] ?? ""
            let quoted = String(decoding: try! JSONSerialization.data(withJSONObject: [body]), as: UTF8.self).dropFirst().dropLast()
            return .text(
                #"{"id": 8001, "body": \#(quoted), "html_url": "https://gitee.com/kit101/drone-yml-test/issues/I4CE7W#note_8001", "user": {"login": "me", "name": "我"}, "created_at": "2026-11-25T09:00:00+08:00", "updated_at": "2026-11-25T09:00:00+08:00"}"#,
                status: 201)
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "gitee", "type": "gitee", "api_url": "\(api.baseURL)/api/v5", "sections": ["issues/kit101/drone-yml-test"]},
              {"id": "shots", "type": "dribbble", "api_url": "\(api.baseURL)", "sections": ["shots"]}
            ]}
            """)
        let items = """
            {"provider":"gitee","section":"issues/kit101/drone-yml-test","id":"kit101/drone-yml-test#I4CE7W","kind":"issue","title":"测试 issue","url":"https://gitee.com/kit101/drone-yml-test/issues/I4CE7W","published":"2021-11-09T10:00:00Z","summary":"","extra":{"repo":"kit101/drone-yml-test","number":"I4CE7W"}}
            {"provider":"shots","section":"shots","id":"471756","kind":"shot","title":"Sasquatch","url":"https://dribbble.com/shots/471756","published":"2012-03-15T01:52:33Z","summary":"","metrics":{"likes":149}}
            """
        XCTAssertEqual(try aggr("import", "-", input: items).status, 0)
        let environment = ["GITEE_TOKEN": token, "DRIBBBLE_TOKEN": "dribbble-token-1"]
        XCTAssertEqual(
            try aggr("star", "gitee:kit101/drone-yml-test#I4CE7W", environment: environment).stdout,
            "gitee: starred kit101/drone-yml-test\n")
        let comment = try aggr("reply", "gitee:kit101/drone-yml-test#I4CE7W", "-m", "已修复 ✅\n谢谢", environment: environment)
        XCTAssertEqual(comment.status, 0, comment.stderr)
        XCTAssertTrue(comment.stdout.contains("commented on kit101/drone-yml-test#I4CE7W"), comment.stdout)
        let stored = try aggr("timeline", "--all", "--format", "ndjson").stdout
        XCTAssertTrue(stored.contains("kit101/drone-yml-test#I4CE7W/note/8001") && stored.contains("已修复 ✅ 谢谢"), stored)
        let sent = try XCTUnwrap(api.requests.first { $0.path.hasSuffix("/comments") })
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: String])?["body"], "已修复 ✅\n谢谢")
        let dry = try aggr("star", "gitee:kit101/drone-yml-test#I4CE7W", "--undo", "--dry-run", environment: environment)
        XCTAssertTrue(
            dry.stdout.contains("DELETE \(api.baseURL)/api/v5/user/starred/kit101/drone-yml-test?access_token=REDACTED"), dry.stdout)
        XCTAssertFalse(dry.stdout.contains(token))
        let react = try aggr("react", "gitee:kit101/drone-yml-test#I4CE7W", environment: environment)
        XCTAssertTrue(react.stderr.contains("Gitee's API v5 has no reactions"), react.stderr)
        let like = try aggr("like", "shots:471756", environment: environment)
        XCTAssertEqual(like.status, 1)
        XCTAssertTrue(like.stderr.contains("Dribbble's API v2 has no like endpoint for third-party tokens"), like.stderr)
        XCTAssertEqual(api.requests.filter { $0.path.hasPrefix("/api/v5/user/starred") }.count, 1, "the dry run sent nothing")
    }
}
