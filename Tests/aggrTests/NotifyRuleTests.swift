import Aggregator
import AggregatorTestSupport
import XCTest

/// Notification channels end to end: a signed webhook to a loopback receiver that fails
/// once, a desktop notification through `notify-send`, `aggr notify test`, and rule errors.
final class NotifyRuleTests: EndToEndTestCase {
    func feedServer(_ titles: [String]) throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        let items = titles.enumerated().map { index, title in
            "<item><title>\(title)</title><link>https://blog.example/\(index)</link><guid>g\(index)</guid>"
                + "<pubDate>Fri, 20 Nov 2026 1\(index):00:00 GMT</pubDate></item>"
        }
        let rss = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title>\(items.joined())</channel></rss>"
        server.route("/feed.xml") { _ in .text(rss, contentType: "application/rss+xml") }
        return server
    }

    /// The HMAC-SHA256 of `body` keyed with `key`, as the openssl tool computes it.
    func opensslHMAC(_ body: [UInt8], key: String) throws -> String {
        let file = directory.file("body-\(UUID().uuidString)")
        try Data(body).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "dgst", "-sha256", "-hmac", key, "-r", file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("openssl is not installed") }
        return String(text.split(separator: " ").first ?? "")
    }

    func testWebhookIsSignedRetriedAndKeepsItsSecrets() throws {
        let feed = try feedServer(["Issue: crash on start", "Release notes"])
        defer { feed.stop() }
        let receiver = try TestHTTPServer()
        defer { receiver.stop() }
        let attempts = Counter()
        receiver.route("/hook") { _ in
            attempts.next() == 1 ? TestHTTPServer.Response(status: 503, body: Array("busy".utf8)) : .text("ok")
        }
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "blog", "type": "feed", "options": {"url": "\(feed.baseURL)/feed.xml"}}],
             "notify": [{"name": "team", "when": "title ~ 'Issue'", "webhook": "\(receiver.baseURL)/hook?token=URLS3CRET",
                         "secret_env": "AGGR_WEBHOOK_SECRET"}]}
            """)
        let result = try runner.run(
            ["watch", "--once"], in: directory.path, extraEnvironment: ["AGGR_WEBHOOK_SECRET": "HOOKS3CRET"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let posts = receiver.requests.filter { $0.path == "/hook" }
        XCTAssertEqual(posts.count, 2, "the first attempt failed and was retried: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("notify team: webhook:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("answered 200 after 2 attempts"), result.stderr)
        for post in posts {
            XCTAssertEqual(post.method, "POST")
            XCTAssertEqual(post.header("X-Aggr-Signature"), "sha256=" + (try opensslHMAC(post.body, key: "HOOKS3CRET")))
        }
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(posts[1].body)) as? [String: Any])
        XCTAssertEqual(body["event"] as? String, "new_items")
        XCTAssertEqual(body["rule"] as? String, "team")
        let items = try XCTUnwrap(body["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["title"] as? String }, ["Issue: crash on start"], "one digest with the matches only")
        XCTAssertFalse(result.stderr.contains("S3CRET"), result.stderr)

        // Without the secret in the environment nothing unsigned is sent.
        let unsigned = try aggr("notify", "test", "team")
        XCTAssertEqual(unsigned.status, 1, unsigned.stderr)
        XCTAssertTrue(unsigned.stderr.contains("not sent: AGGR_WEBHOOK_SECRET is not set"), unsigned.stderr)
        XCTAssertEqual(receiver.requests.filter { $0.path == "/hook" }.count, 2)
    }

    func testDesktopNotificationGoesThroughNotifySend() throws {
        let feed = try feedServer(["Swift 6.3 released", "Unrelated <b>markup</b>"])
        defer { feed.stop() }
        let bin = directory.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let log = directory.file("notify-send.log")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \(log); done\n".write(
            toFile: "\(bin)/notify-send", atomically: true, encoding: .utf8)
        chmod("\(bin)/notify-send", 0o755)
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "blog", "type": "feed", "options": {"url": "\(feed.baseURL)/feed.xml"}}],
             "notify": [{"name": "swift", "when": "title ~* 'swift'", "desktop": true}]}
            """)
        let path = "\(bin):" + (runner.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try runner.run(["watch", "--once"], in: directory.path, extraEnvironment: ["PATH": path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let arguments = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(arguments, ["--app-name=aggr", "aggr · swift", "1 new: Swift 6.3 released"])
        XCTAssertTrue(result.stderr.contains("notify swift: desktop: notify-send"), result.stderr)
    }

    func testNotifyTestShowsMatchesAndSendsATestNotification() throws {
        let feed = try feedServer(["aggr 1.0 is out", "aggr tips", "Something else"])
        defer { feed.stop() }
        let calls = directory.file("calls.ndjson")
        let hook = directory.file("hook")
        try "#!/bin/sh\necho \"rule=$AGGR_RULE count=$AGGR_COUNT\" >> \(calls)\ncat >> \(calls)\n".write(
            toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "blog", "type": "feed", "options": {"url": "\(feed.baseURL)/feed.xml"}}],
             "notify": [{"name": "mentions", "when": "title ~* 'aggr'", "command": ["\(hook)", "--quiet"]}]}
            """)
        XCTAssertEqual(try aggr("refresh").status, 0)
        let test = try aggr("notify", "test", "mentions")
        XCTAssertEqual(test.status, 0, test.stderr)
        XCTAssertTrue(test.stdout.contains("2 stored items match (blog 2)"), test.stdout)
        XCTAssertTrue(test.stdout.contains("aggr 1.0 is out") && test.stdout.contains("aggr tips"), test.stdout)
        XCTAssertFalse(test.stdout.contains("Something else"), test.stdout)
        XCTAssertTrue(test.stderr.contains("notify mentions: command: hook ran"), test.stderr)
        let received = try String(contentsOfFile: calls, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(received.first, "rule=mentions count=2")
        XCTAssertEqual(received.count, 3, "the command got both matches as NDJSON")

        let unknown = try aggr("notify", "test", "mention")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no notify rule \"mention\" (did you mean \"mentions\"?)"), unknown.stderr)

        // A failing command is reported, with the status.
        try "#!/bin/sh\necho broken >&2\nexit 3\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        let failing = try aggr("notify", "test", "mentions")
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stderr.contains("hook exited with status 3: broken"), failing.stderr)
    }

    func testBadRulesAreConfigErrorsNamingTheKeyPath() throws {
        let cases: [(String, String)] = [
            (#"[{"name": "a", "when": "title ~", "desktop": true}]"#, "notify[0].when"),
            (#"[{"name": "a", "desktop": true}]"#, "notify[0]: needs \"when\""),
            (#"[{"name": "a", "when": "kind = issue"}]"#, "says nothing to do"),
            (#"[{"name": "a", "when": "kind = issue", "webhook": "ftp://x"}]"#, "notify[0].webhook"),
            (
                #"[{"name": "a", "when": "kind = issue", "desktop": true}, {"name": "a", "when": "kind = pr", "desktop": true}]"#,
                "notify[1].name"
            ),
            (
                #"[{"name": "a", "when": "kind = issue", "webhook": "https://h.example", "secret_env": "ghp_abcdefgh12345678ABCDEFGH"}]"#,
                "notify[0].secret_env"
            ),
            (#"[{"name": "a", "when": "kind = issue", "command": []}]"#, "notify[0].command"),
            (#"[{"name": "a", "when": "kind = issue", "webhook": "https://h.example", "webhook_env": "HOOK"}]"#, "notify[0].webhook_env"),
            (#"[{"name": "a", "when": "kind = issue", "webhook_env": "https://h.example/x"}]"#, "notify[0].webhook_env"),
            (#"{"name": "a"}"#, "notify: must be an array"),
        ]
        for (rules, expected) in cases {
            directory.write("providers.json", #"{"providers": [], "notify": \#(rules)}"#)
            let result = try aggr("watch", "--once")
            XCTAssertEqual(result.status, 78, rules)
            XCTAssertTrue(result.stderr.contains(expected), "\(rules): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("ghp_abcdefgh"), "a pasted secret is never echoed")
        }
    }
}

extension NotifyRuleTests {
    /// `aggr notify add/list/remove` on a SQLite file edit providers.json's `notify`, and
    /// the watch sends what they saved; a webhook URL may come from the environment.
    func testRulesAreAddedListedAndRemovedFromTheCommandLine() throws {
        let feed = try feedServer(["Swift 6.3 released", "Weekly notes"])
        defer { feed.stop() }
        let receiver = try TestHTTPServer()
        defer { receiver.stop() }
        receiver.route("/hook") { _ in .text("ok") }
        directory.write(
            "providers.json", #"{"providers": [{"id": "blog", "type": "feed", "options": {"url": "\#(feed.baseURL)/feed.xml"}}]}"#)
        let added = try aggr("notify", "add", "swift", "--when", "title ~* 'swift'", "--webhook-env", "TEAM_HOOK")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(added.stderr, "saved notify rule swift in providers.json: aggr watch sends it\n")
        XCTAssertEqual(try aggr("notify", "add", "all", "--when", "kind = post", "--", "/bin/true").status, 0)
        XCTAssertEqual(
            try aggr("notify", "list").stdout,
            "swift\tproviders.json\twebhook\ttitle ~* 'swift'\nall\tproviders.json\tcommand\tkind = post\n")
        let file = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        XCTAssertTrue(file.contains(#""webhook_env": "TEAM_HOOK""#), file)

        let noChannel = try aggr("notify", "add", "quiet", "--when", "kind = post")
        XCTAssertEqual(noChannel.status, 64)
        XCTAssertTrue(noChannel.stderr.contains("give a channel"), noChannel.stderr)
        let badFilter = try aggr("notify", "add", "bad", "--when", "title ~", "--desktop")
        XCTAssertEqual(badFilter.status, 64)
        XCTAssertTrue(badFilter.stderr.contains("^"), "the filter error points at the place: \(badFilter.stderr)")
        XCTAssertEqual(try aggr("notify", "add", "Bad Name", "--when", "kind = post", "--desktop").status, 64)

        // Without the variable nothing is sent, and the watch says why.
        let unset = try aggr("watch", "--once")
        XCTAssertEqual(unset.status, 0, unset.stderr)
        XCTAssertTrue(unset.stderr.contains("not sent: TEAM_HOOK is not set"), unset.stderr)
        XCTAssertEqual(try aggr("notify", "remove", "all").stderr, "removed notify rule all from providers.json\n")
        let missing = try aggr("notify", "remove", "all")
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stderr, "aggr: no notify rule \"all\"\n")
        let sent = try runner.run(
            ["notify", "test", "swift"], in: directory.path, extraEnvironment: ["TEAM_HOOK": "\(receiver.baseURL)/hook"], timeout: 60)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(receiver.requests.filter { $0.path == "/hook" }.count, 1, sent.stderr)
        XCTAssertFalse(sent.stderr.contains("/hook"), "a URL from the environment is shown by its origin only: \(sent.stderr)")
    }

    /// On PostgreSQL each user has rules of their own, matched against their own state and
    /// sent once per item however many watches run; a user's rule keeps no secret.
    func testEachUserHasNotificationRulesOfTheirOwn() throws {
        let cluster = try PostgresCluster.shared.get()
        let database = try cluster.createDatabase()
        runner.environment.merge(cluster.environment) { $1 }
        runner.environment["AGGR_DB"] = database
        let feed = try feedServer(["Swift 6.3 released", "Rust 2.0 is out", "Swift and Rust, side by side", "Weekly notes"])
        defer { feed.stop() }
        let receiver = try TestHTTPServer()
        defer { receiver.stop() }
        for path in ["/alice", "/bob", "/site"] { receiver.route(path) { _ in .text("ok") } }
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "blog", "type": "feed", "options": {"url": "\(feed.baseURL)/feed.xml"}}],
             "notify": [{"name": "site", "when": "title ~ 'Weekly'", "webhook": "\(receiver.baseURL)/site"}]}
            """)
        XCTAssertEqual(try aggr("users", "add", "alice", input: "correct horse battery\n").status, 0)
        XCTAssertEqual(try aggr("users", "add", "bob", input: "another long secret\n").status, 0)
        let alices = try aggr(
            "notify", "add", "mine", "--when", "title ~* 'swift'", "--webhook", "\(receiver.baseURL)/alice", "--user", "alice")
        XCTAssertEqual(alices.status, 0, alices.stderr)
        XCTAssertEqual(alices.stderr, "saved notify rule mine for alice: aggr watch sends it\n")
        let slack = "https://hooks.slack.com/services/T0000/B0000/abcdEFGH1234ijklMNOP5678"
        let secret = try aggr("notify", "add", "mine", "--when", "title ~* 'rust'", "--webhook", slack, "--user", "bob")
        XCTAssertEqual(secret.status, 64)
        XCTAssertTrue(secret.stderr.contains("carries a secret") && secret.stderr.contains("--webhook-env"), secret.stderr)
        XCTAssertFalse(secret.stderr.contains("abcdEFGH1234"), secret.stderr)
        XCTAssertEqual(
            try aggr("notify", "add", "mine", "--when", "title ~* 'rust'", "--webhook-env", "BOB_HOOK", "--user", "bob").status, 0)
        XCTAssertEqual(
            try aggr("notify", "list", "--user", "alice").stdout,
            "mine\talice\twebhook\ttitle ~* 'swift'\nsite\tproviders.json\twebhook\ttitle ~ 'Weekly'\n")
        XCTAssertEqual(
            try aggr("notify", "list", "--user", "bob").stdout,
            "mine\tbob\twebhook\ttitle ~* 'rust'\nsite\tproviders.json\twebhook\ttitle ~ 'Weekly'\n", "alice's rule is hers")

        // Two watches at once: each rule's digest goes out once, with that user's matches.
        var environment = runner.environment
        environment["BOB_HOOK"] = "\(receiver.baseURL)/bob"
        let watches = try (0..<2).map { _ in
            try BackgroundCommand(
                binary: runner.binary, arguments: ["watch", "--once"], directory: directory.path, environment: environment)
        }
        for watch in watches { XCTAssertEqual(watch.waitForExit(timeout: 60), 0, watch.stderr) }
        func titles(_ path: String) throws -> [[String]] {
            try receiver.requests.filter { $0.path == path }.map { request in
                let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
                return try XCTUnwrap(body["items"] as? [[String: Any]]).compactMap { $0["title"] as? String }.sorted()
            }
        }
        let logs = watches.map(\.stderr).joined(separator: "\n")
        XCTAssertEqual(try titles("/alice"), [["Swift 6.3 released", "Swift and Rust, side by side"]], logs)
        XCTAssertEqual(try titles("/bob"), [["Rust 2.0 is out", "Swift and Rust, side by side"]], logs)
        XCTAssertEqual(try titles("/site"), [["Weekly notes"]], logs)
        XCTAssertTrue(logs.contains("notify alice/mine: webhook:"), "the log names whose rule it is: \(logs)")

        // Reading is each user's: bob's rule on unread items no longer sees what he read.
        let body = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try XCTUnwrap(receiver.requests.first { $0.path == "/bob" }).body)) as? [String: Any])
        XCTAssertEqual(body["rule"] as? String, "bob/mine")
        XCTAssertEqual(try aggr("notify", "add", "unread", "--when", "unread and title ~* 'rust'", "--desktop", "--user", "bob").status, 0)
        let preview = try aggr("notify", "test", "unread", "--dry-run", "--user", "bob")
        XCTAssertTrue(preview.stdout.contains("2 stored items match"), preview.stdout)
        let bobs = try aggr("timeline", "--format", "tsv", "--user", "bob").stdout.split(separator: "\n").dropFirst()
        let rustRef = try XCTUnwrap(bobs.first { $0.contains("Rust 2.0") }).split(separator: "\t")[0]
        XCTAssertEqual(try aggr("read", String(rustRef), "--user", "bob").status, 0)
        XCTAssertTrue(try aggr("notify", "test", "unread", "--dry-run", "--user", "bob").stdout.contains("1 stored item matches"))
        XCTAssertEqual(try aggr("notify", "test", "unread", "--dry-run", "--user", "alice").status, 64, "bob's rule is not alice's")

        XCTAssertEqual(try aggr("notify", "remove", "mine", "--user", "alice").stderr, "removed notify rule mine of alice\n")
        XCTAssertFalse(try aggr("notify", "list", "--user", "alice").stdout.contains("mine"))
        XCTAssertTrue(try aggr("notify", "list", "--user", "bob").stdout.contains("mine\tbob"))
        let dump = try cluster.dump(database)
        XCTAssertFalse(dump.contains("abcdEFGH1234"), "the refused URL was not kept")
        XCTAssertTrue(dump.contains("BOB_HOOK"), "bob's rule names the variable")
    }
}

/// A thread-safe counter for server routes.
final class Counter: @unchecked Sendable {
    // Invariant: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = 0

    /// The next number, starting at 1.
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
