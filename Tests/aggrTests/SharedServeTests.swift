import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr serve` as a team server on one PostgreSQL database: users sign in with their own
/// names and passwords (pages, feeds and the Google Reader API) and see only their own read
/// and saved state; several serve processes (behind a load balancer) accept each other's
/// reader-app tokens and browser sessions, as the database keeps both.
final class SharedServeTests: ServeTestCase {
    /// A fresh database on the test cluster, named in `AGGR_DB` for every command.
    func useSharedDatabase() throws -> (cluster: PostgresCluster, database: String) {
        let cluster = try PostgresCluster.shared.get()
        runner.environment.merge(cluster.environment) { $1 }
        let database = try cluster.createDatabase()
        runner.environment["AGGR_DB"] = database
        return (cluster, database)
    }

    func addUser(_ name: String, password: String) throws {
        let added = try aggr("users", "add", name, input: password + "\n")
        XCTAssertEqual(added.status, 0, added.stderr)
    }

    /// Signs `name` in through the sign-in form; the answer to the form's POST.
    func signIn(_ browser: CurlSession, _ name: String, _ password: String) throws -> CurlSession.Answer {
        let form = try browser.send("GET", "/login")
        XCTAssertEqual(form.status, 200)
        let csrf = try XCTUnwrap(CurlSession.hiddenField("csrf", in: form.body), form.body)
        return try browser.send("POST", "/login", form: [("csrf", csrf), ("user", name), ("password", password), ("next", "/")])
    }

    /// The `Auth` token ClientLogin gives `name`, nil when refused.
    func readerToken(_ base: String, _ name: String, _ password: String) throws -> String? {
        let login = try session(base).send("POST", "/accounts/ClientLogin", form: [("Email", name), ("Passwd", password)])
        guard login.status == 200 else { return nil }
        return try XCTUnwrap(login.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5).description
    }

    /// The value of cookie `name` in `browser`'s jar (curl's cookie file: HttpOnly ones
    /// on lines starting `#HttpOnly_`).
    func cookieValue(_ name: String, in browser: CurlSession) throws -> String? {
        let jar = try String(contentsOfFile: browser.jar, encoding: .utf8)
        for line in jar.split(separator: "\n") where !line.hasPrefix("# ") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 7, fields[5] == name { return String(fields[6]) }
        }
        return nil
    }

    /// The addresses of the items `user` has not read, through the CLI.
    func unreadURLs(of user: String) throws -> Set<String> {
        let result = try aggr("timeline", "--unread", "--all", "--format", "ndjson", "--limit", "100", "--no-dedupe", "--user", user)
        XCTAssertEqual(result.status, 0, result.stderr)
        return Set(
            result.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["url"] as? String
            })
    }

    func testTwoServesOnOneDatabaseAcceptEachOthersReaderTokens() throws {
        _ = try useSharedDatabase()
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let password = ["AGGR_PASSWORD": "PASSW0RD-S3CRET"]
        let first = try startServe(environment: password)
        let firstProcess = try XCTUnwrap(serve)
        defer {
            firstProcess.send(SIGTERM)
            _ = firstProcess.waitForExit(timeout: 10)
        }
        let second = try startServe(environment: password)
        XCTAssertNotEqual(first, second)

        let auth = try XCTUnwrap(try readerToken(first, "aggr", "PASSW0RD-S3CRET"))
        let info = try session(second).send("GET", "/reader/api/0/user-info", headers: [("Authorization", "GoogleLogin auth=\(auth)")])
        XCTAssertEqual(info.status, 200, "a reader app's token from the first serve works at the second")
    }

    /// Two users through the pages and a real reader app (the PyPI `google-reader` client):
    /// each signs in with their own password and marks only their own state.
    func testUsersSignInWithTheirOwnPasswordsAndKeepTheirOwnState() throws {
        let (cluster, database) = try useSharedDatabase()
        writeConfig()
        try importItems()
        try addUser("alice", password: "alice-long-secret")
        try addUser("bob", password: "bob-long-secret")
        XCTAssertEqual(try aggr("filter", "save", "mine", "provider = shots", "--user", "alice").status, 0)
        // No password in the config: the users' own passwords protect the site.
        let base = try startServe()
        let log = try XCTUnwrap(serve).stderr
        XCTAssertTrue(log.contains("users sign in with their own passwords"), log)

        let alice = session(base)
        let home = try alice.send("GET", "/")
        XCTAssertEqual(home.status, 303, "nobody reads before signing in")
        XCTAssertTrue(home.header("Location")?.hasPrefix("/login") == true)
        XCTAssertTrue(try alice.send("GET", "/login").body.contains("name=\"user\""), "the sign-in form asks for a user name")
        let wrong = try signIn(alice, "alice", "bob-long-secret")
        XCTAssertEqual(wrong.status, 403, "another user's password is wrong")
        XCTAssertTrue(wrong.body.contains("Wrong user name or password."), wrong.body)
        XCTAssertEqual(try signIn(alice, "mallory", "alice-long-secret").status, 403, "no such user")
        XCTAssertEqual(try signIn(alice, "aggr", "").status, 403, "a user without a password cannot sign in")
        let signedIn = try signIn(alice, "alice", "alice-long-secret")
        XCTAssertEqual(signedIn.status, 303, signedIn.body)
        let page = try alice.send("GET", "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("<span class=\"user\">alice</span>"), "the page names who is signed in")
        XCTAssertTrue(page.body.contains("data-tab=\"v:mine\""), "alice's own view is a tab of hers")
        let csrf = try XCTUnwrap(CurlSession.hiddenField("csrf", in: page.body))
        XCTAssertEqual(try alice.send("POST", "/item/4/read", form: [("csrf", csrf), ("state", "read")]).status, 303)
        XCTAssertEqual(try alice.send("POST", "/item/5/save", form: [("csrf", csrf), ("state", "saved")]).status, 303)

        // Bob syncs with a real reader app; he sees none of alice's marks.
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let python = here.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-tools/google-reader/bin/python").path
        if FileManager.default.isExecutableFile(atPath: python) {
            let script = here.appendingPathComponent("Scripts/google_reader_sync.py").path
            let run = try ToolOutput.run(
                "/usr/bin/env", ["READER_USER=bob", "/usr/bin/timeout", "60", python, script, base, "bob-long-secret"])
            XCTAssertEqual(run.status, 0, "the client failed: \(run.text)")
            let seen = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.text.utf8)) as? [String: Any], run.text)
            XCTAssertEqual(seen["wrong_password"] as? String, "refused")
            XCTAssertEqual(seen["user"] as? String, "bob")
            XCTAssertEqual(seen["unread"] as? Int, 6, "alice's reading is not bob's")
            XCTAssertEqual((seen["starred"] as? [String])?.count, 1)
        } else {
            // Without the PyPI client (no Python >= 3.12), the same calls by hand.
            let token = try XCTUnwrap(try readerToken(base, "bob", "bob-long-secret"))
            let app = session(base)
            let header = [("Authorization", "GoogleLogin auth=\(token)")]
            let action = try app.send("GET", "/reader/api/0/token", headers: header).body.trimmingCharacters(in: .whitespacesAndNewlines)
            for (item, tag) in [("1", "read"), ("1", "starred")] {
                let edit = try app.send(
                    "POST", "/reader/api/0/edit-tag", form: [("i", item), ("a", "user/-/state/com.google/\(tag)"), ("T", action)],
                    headers: header)
                XCTAssertEqual(edit.body, "OK")
            }
        }
        let everything = try unreadURLs(of: "aggr")
        XCTAssertEqual(everything.count, 6, "the user serve runs as read nothing: \(everything)")
        let ocean = "https://dribbble.com/shots/1"
        XCTAssertEqual(try unreadURLs(of: "alice"), everything.subtracting([ocean]))
        let bobUnread = try unreadURLs(of: "bob")
        XCTAssertEqual(bobUnread.count, 5, "\(bobUnread)")
        XCTAssertTrue(bobUnread.contains(ocean), "bob did not read what alice read")
        XCTAssertEqual(try aggr("timeline", "--saved", "--format", "tsv", "--user", "alice").stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(try aggr("timeline", "--saved", "--format", "tsv", "--user", "bob").stdout.split(separator: "\n").count, 2)
        XCTAssertFalse(
            try aggr("timeline", "--saved", "--format", "tsv", "--user", "bob").stdout.contains("Forest icons"), "alice's save is hers")

        // Each reader-app token reads its own user's counts; one bent to name another user fails.
        let aliceToken = try XCTUnwrap(try readerToken(base, "alice", "alice-long-secret"))
        let bobToken = try XCTUnwrap(try readerToken(base, "bob", "bob-long-secret"))
        XCTAssertNotEqual(aliceToken, bobToken)
        func info(_ token: String) throws -> CurlSession.Answer {
            try session(base).send("GET", "/reader/api/0/user-info", headers: [("Authorization", "GoogleLogin auth=\(token)")])
        }
        XCTAssertTrue(try info(aliceToken).body.contains(#""userName":"alice""#))
        func tags(_ token: String) throws -> String {
            try session(base).send("GET", "/reader/api/0/tag/list?output=json", headers: [("Authorization", "GoogleLogin auth=\(token)")])
                .body
        }
        XCTAssertTrue(try tags(aliceToken).contains("user/-/label/mine"))
        XCTAssertFalse(try tags(bobToken).contains("user/-/label/mine"), "alice's view is no folder of bob's")
        // Her app renames her folder: her own view is renamed, the config is not touched.
        let configBefore = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        let renamed = try session(base).send(
            "POST", "/reader/api/0/rename-tag", form: [("s", "user/-/label/mine"), ("dest", "user/-/label/picks")],
            headers: [("Authorization", "GoogleLogin auth=\(aliceToken)")])
        XCTAssertEqual(renamed.body, "OK")
        XCTAssertTrue(try tags(aliceToken).contains("user/-/label/picks"))
        XCTAssertFalse(try tags(aliceToken).contains("user/-/label/mine"))
        XCTAssertEqual(try aggr("timeline", "picks", "--user", "alice").status, 0)
        XCTAssertEqual(try aggr("timeline", "picks", "--user", "bob").status, 64, "bob has no such view")
        XCTAssertEqual(try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8), configBefore)
        let hexAlice = "alice".utf8.map { String(format: "%02x", $0) }.joined()
        let hexBob = "bob".utf8.map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(try info(bobToken.replacingOccurrences(of: "/\(hexBob)/", with: "/\(hexAlice)/")).status, 401)
        XCTAssertNil(try readerToken(base, "alice", "bob-long-secret"))

        // Feeds take a user's name and password as HTTP Basic auth and show their state.
        XCTAssertEqual(try session(base).send("GET", "/feeds/all.atom").status, 401)
        XCTAssertEqual(try session(base).send("GET", "/feeds/all.atom", user: "alice:bob-long-secret").status, 401)
        let feed = try session(base).send("GET", "/feeds/saved.atom", user: "alice:alice-long-secret")
        XCTAssertEqual(feed.status, 200, feed.body)
        XCTAssertTrue(feed.body.contains("Forest icons"), feed.body)

        // A new password ends bob's reader tokens and browser sessions, and alice keeps hers;
        // removing alice ends her browser session.
        let bobBrowser = session(base)
        XCTAssertEqual(try signIn(bobBrowser, "bob", "bob-long-secret").status, 303)
        XCTAssertEqual(try bobBrowser.send("GET", "/").status, 200)
        let bobCookie = try XCTUnwrap(try cookieValue("aggr_session", in: bobBrowser))
        XCTAssertEqual(try aggr("users", "passwd", "bob", input: "bob-new-secret\n").status, 0)
        XCTAssertEqual(try info(bobToken).status, 401, "a password change ends the user's reader tokens")
        XCTAssertEqual(try bobBrowser.send("GET", "/").status, 303, "and their browser sessions")
        XCTAssertEqual(try info(aliceToken).status, 200)
        XCTAssertEqual(try alice.send("GET", "/").status, 200)

        // The database keeps sessions by the hash of their cookie, and no password.
        let cookie = try XCTUnwrap(try cookieValue("aggr_session", in: alice))
        let dump = try cluster.dump(database)
        XCTAssertTrue(dump.contains(RequestSigner.sha256Hex(cookie)), "the session is kept by its hash")
        XCTAssertFalse(dump.contains(cookie) || dump.contains(bobCookie), "never by its cookie")
        XCTAssertFalse(dump.contains("alice-long-secret") || dump.contains("bob-new-secret"))

        XCTAssertEqual(try aggr("users", "remove", "alice").status, 0)
        XCTAssertEqual(try alice.send("GET", "/").status, 303, "a removed user is signed out")
        XCTAssertEqual(try info(aliceToken).status, 401)
    }

    /// A browser signed in at one serve is signed in at another on the same database, and
    /// signing out at either ends it at both.
    func testTwoServesShareBrowserSessions() throws {
        _ = try useSharedDatabase()
        writeConfig()
        try importItems()
        try addUser("alice", password: "alice-long-secret")
        let first = try startServe()
        let firstProcess = try XCTUnwrap(serve)
        defer {
            firstProcess.send(SIGTERM)
            _ = firstProcess.waitForExit(timeout: 10)
        }
        let second = try startServe()
        let browser = session(first)
        XCTAssertEqual(try signIn(browser, "alice", "alice-long-secret").status, 303)
        var atSecond = browser
        atSecond.baseURL = second
        let page = try atSecond.send("GET", "/")
        XCTAssertEqual(page.status, 200, "the session from the first serve is known at the second")
        XCTAssertTrue(page.body.contains("<span class=\"user\">alice</span>"))
        let csrf = try XCTUnwrap(CurlSession.hiddenField("csrf", in: page.body))
        XCTAssertEqual(try atSecond.send("POST", "/item/1/read", form: [("csrf", csrf), ("state", "read")]).status, 303)
        XCTAssertFalse(try unreadURLs(of: "alice").contains("https://www.v2ex.com/t/1001"))
        let cookie = try XCTUnwrap(try cookieValue("aggr_session", in: browser))
        XCTAssertEqual(try atSecond.send("POST", "/logout", form: [("csrf", csrf)]).status, 303)
        // The old cookie, sent again, is dead at the first serve too.
        let replayed = try session(first).send("GET", "/", headers: [("Cookie", "aggr_session=\(cookie)")])
        XCTAssertEqual(replayed.status, 303, "signed out at one serve, signed out at both")
        XCTAssertTrue(replayed.header("Location")?.hasPrefix("/login") == true)
    }
}
