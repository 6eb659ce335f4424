import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr watch` as a user runs it: the real binary in the background against loopback
/// feeds that change between passes, with notification commands that record what they got.
final class WatchCommandTests: EndToEndTestCase {
    /// A feed whose items the test changes between passes.
    final class ChangingFeed: @unchecked Sendable {
        // Invariant: `titles` is only touched while holding `lock`.
        private let lock = NSLock()
        private var titles: [String]

        init(_ titles: [String]) { self.titles = titles }

        func add(_ title: String) { lock.withLock { titles.insert(title, at: 0) } }

        var rss: String {
            let items = lock.withLock { titles }.enumerated().map { index, title in
                "<item><title>\(title)</title><link>https://blog.example/\(title.replacingOccurrences(of: " ", with: "-"))</link>"
                    + "<guid>\(title)</guid><pubDate>Fri, 20 Nov 2026 \(String(format: "%02d", 10 + index % 10)):00:00 GMT</pubDate></item>"
            }
            return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Changing</title>\(items.joined())</channel></rss>"
        }
    }

    /// An executable that saves its standard input and `AGGR_RULE` as one file per call in
    /// `<name>.calls/`.
    func recorder(_ name: String) throws -> (path: String, calls: String) {
        let calls = directory.file("\(name).calls")
        try FileManager.default.createDirectory(atPath: calls, withIntermediateDirectories: true)
        let path = directory.file(name)
        try "#!/bin/sh\nf=\"\(calls)/$AGGR_RULE-$(date +%s%N)-$$\"\ncat > \"$f.tmp\" && mv \"$f.tmp\" \"$f.ndjson\"\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, calls)
    }

    /// The titles each recorded call received, oldest call first.
    func recordedCalls(_ calls: String, rule: String) throws -> [[String]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: calls).filter {
            $0.hasPrefix("\(rule)-") && $0.hasSuffix(".ndjson")
        }
        .sorted()
        return try names.map { name in
            try String(contentsOfFile: "\(calls)/\(name)", encoding: .utf8).split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["title"] as? String ?? "?"
            }.sorted()
        }
    }

    func startWatch(_ arguments: String...) throws -> BackgroundCommand {
        var environment = runner.environment
        environment.removeValue(forKey: "AGGR_NOW")
        return try BackgroundCommand(
            binary: runner.binary, arguments: ["watch"] + arguments, directory: directory.path, environment: environment)
    }

    func storedTitles() throws -> Set<String> {
        let result = try aggr("timeline", "--all", "--format", "ndjson", "--limit", "1000")
        return Set(
            result.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["title"] as? String
            })
    }

    func config(feed: String, rules: String) -> String {
        """
        {"providers": [{"id": "blog", "type": "feed", "interval": "1s", "options": {"url": "\(feed)"}}],
         "notify": [\(rules)]}
        """
    }

    func testWatchRefreshesWhenDueNotifiesOncePerPassAndFollowsConfigEdits() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let feed = ChangingFeed(["Release 1.0", "Other news"])
        server.route("/feed.xml") { _ in .text(feed.rss, contentType: "application/rss+xml") }
        let first = try recorder("first-hook")
        let second = try recorder("second-hook")
        let rule1 = #"{"name": "releases", "when": "title ~ 'Release'", "command": ["\#(first.path)"]}"#
        let rule2 = #"{"name": "later", "when": "title ~ 'Release'", "command": ["\#(second.path)"]}"#
        directory.write("providers.json", config(feed: "\(server.baseURL)/feed.xml", rules: rule1))

        let watch = try startWatch()
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 30) { (try? recordedCalls(first.calls, rule: "releases").count) == 1 }, watch.stderr)
        XCTAssertEqual(try recordedCalls(first.calls, rule: "releases"), [["Release 1.0"]], "items stored after the rule existed fire it")
        XCTAssertTrue(watch.stderr.contains("blog feed: 2 new"), "one log line per fetched section: \(watch.stderr)")

        feed.add("Release 2.0")
        XCTAssertTrue(BackgroundCommand.waitUntil(timeout: 30) { (try? storedTitles().contains("Release 2.0")) == true }, watch.stderr)
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 30) { (try? recordedCalls(first.calls, rule: "releases").count) == 2 }, watch.stderr)
        XCTAssertEqual(try recordedCalls(first.calls, rule: "releases").last, ["Release 2.0"], "an item fires a rule once")

        // A rule added while running starts from now: the stored releases never fire it.
        directory.write("providers.json", config(feed: "\(server.baseURL)/feed.xml", rules: rule1 + "," + rule2))
        XCTAssertTrue(watch.waitForOutput("providers.json changed: reloaded"), watch.stderr)
        // A broken edit is reported and the last good config keeps running.
        directory.write("providers.json", #"{"providers": [{"id": "blog", "type": "nope"}]}"#)
        XCTAssertTrue(watch.waitForOutput("keeping the last good config"), watch.stderr)
        feed.add("Release 3.0")
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 30) { (try? recordedCalls(second.calls, rule: "later").count) == 1 }, watch.stderr)
        XCTAssertEqual(try recordedCalls(second.calls, rule: "later"), [["Release 3.0"]])
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 30) { (try? recordedCalls(first.calls, rule: "releases").count) == 3 }, watch.stderr)
        XCTAssertEqual(try recordedCalls(first.calls, rule: "releases").last, ["Release 3.0"])

        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(timeout: 15), 0, watch.stderr)
        XCTAssertEqual(try recordedCalls(first.calls, rule: "releases").count, 3, "no notification fired twice")

        // Across a restart nothing fires again.
        directory.write("providers.json", config(feed: "\(server.baseURL)/feed.xml", rules: rule1 + "," + rule2))
        XCTAssertEqual(try storedTitles(), ["Release 1.0", "Other news", "Release 2.0", "Release 3.0"])
        let once = try aggr("watch", "--once")
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertEqual(try recordedCalls(first.calls, rule: "releases").count, 3, once.stderr)
        XCTAssertEqual(try recordedCalls(second.calls, rule: "later").count, 1, once.stderr)
    }

    func testHangingWebhookReceiversHoldUpNeitherRefreshesNorOtherRules() throws {
        // The feed and every receiver on one host, as the probe had them: the four hanging
        // receivers used to take the refresh client's four connection slots for that host.
        let server = try TestHTTPServer()
        defer { server.stop() }
        let feed = ChangingFeed(["Release 1.0"])
        server.route("/feed.xml") { _ in .text(feed.rss, contentType: "application/rss+xml") }
        server.route("/hang/") { _ in TestHTTPServer.Response(behavior: .stall) }
        server.route("/hook/") { _ in .text("ok") }
        let hanging = (1...4).map { #"{"name": "hang\#($0)", "when": "title ~ 'Release'", "webhook": "\#(server.baseURL)/hang/\#($0)"}"# }
        let healthy = #"{"name": "healthy", "when": "title ~ 'Release'", "webhook": "\#(server.baseURL)/hook/DISCORDPATHS3CRET/x"}"#
        directory.write("providers.json", config(feed: "\(server.baseURL)/feed.xml", rules: (hanging + [healthy]).joined(separator: ",")))
        func posts(_ prefix: String) -> Int { server.requests.filter { $0.path.hasPrefix(prefix) }.count }

        let watch = try startWatch()
        defer {
            watch.send(SIGTERM)
            _ = watch.waitForExit(timeout: 15)
        }
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 15) { posts("/hook/") == 1 }, "the healthy receiver waits for nobody: \(watch.stderr)")
        XCTAssertTrue(BackgroundCommand.waitUntil(timeout: 10) { posts("/hang/") == 4 }, watch.stderr)

        feed.add("Release 2.0")
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 15) { (try? self.storedTitles().contains("Release 2.0")) == true },
            "refreshes go on while four receivers hang: \(watch.stderr)")
        XCTAssertTrue(BackgroundCommand.waitUntil(timeout: 15) { posts("/hook/") == 2 }, watch.stderr)
        // Each hanging rule holds its one delivery; its next digest waits behind it.
        XCTAssertEqual(posts("/hang/"), 4)

        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(timeout: 15), 0, watch.stderr)
        XCTAssertTrue(watch.stderr.contains("notify healthy: webhook: \(server.baseURL) answered 200"), watch.stderr)
        XCTAssertFalse(watch.stderr.contains("DISCORDPATHS3CRET"), "webhook URLs are logged as scheme and host: \(watch.stderr)")
    }

    /// A shorter `interval` applies at once: the next fetch is the last one plus the new interval,
    /// not the deadline the old interval set.
    func testShorteningAnIntervalWhileWatchingAppliesAtOnce() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed.xml") { _ in .text(ChangingFeed(["Only"]).rss, contentType: "application/rss+xml") }
        func write(interval: String) {
            directory.write(
                "providers.json",
                #"{"providers": [{"id": "blog", "type": "feed", "interval": "\#(interval)", "options": {"url": "\#(server.baseURL)/feed.xml"}}]}"#
            )
        }
        write(interval: "1h")
        let watch = try startWatch()
        defer { watch.send(SIGTERM) }
        XCTAssertTrue(watch.waitForOutput("next: blog at"), watch.stderr)
        XCTAssertEqual(server.requests.count, 1)
        write(interval: "3s")
        XCTAssertTrue(watch.waitForOutput("providers.json changed: reloaded", timeout: 10), watch.stderr)
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 15) { server.requests.count >= 2 },
            "fetched again about 3 s after the last fetch, not in an hour: \(watch.stderr)")
    }

    func testASecondWatchRefusesWhileOtherCommandsKeepWorking() throws {
        try XCTSkipIf(onPostgres, "one watch per SQLite file; on PostgreSQL watches share the refresh")
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed.xml") { _ in .text(ChangingFeed(["Only"]).rss, contentType: "application/rss+xml") }
        directory.write(
            "providers.json",
            #"{"providers": [{"id": "blog", "type": "feed", "interval": "1h", "options": {"url": "\#(server.baseURL)/feed.xml"}}]}"#
        )
        let watch = try startWatch()
        XCTAssertTrue(watch.waitForOutput("next: blog at"), watch.stderr)
        let second = try aggr("watch")
        XCTAssertEqual(second.status, 75, second.stderr)
        XCTAssertTrue(second.stderr.contains("aggr watch (pid \(watch.pid)) is already watching"), second.stderr)
        let once = try aggr("watch", "--once")
        XCTAssertEqual(once.status, 75, "--once is a writer too: \(once.stderr)")
        let timeline = try aggr("timeline", "--format", "tsv")
        XCTAssertEqual(timeline.status, 0, timeline.stderr)
        XCTAssertTrue(timeline.stdout.contains("Only"))
        let refresh = try aggr("refresh", "--force")
        XCTAssertEqual(refresh.status, 0, "a hand-run refresh still works: \(refresh.stderr)")
        watch.send(SIGINT)
        XCTAssertEqual(watch.waitForExit(timeout: 15), 0, watch.stderr)
        // Once it is gone the claim is free again.
        XCTAssertEqual(try aggr("watch", "--once").status, 0)
    }

    func testSIGTERMDuringARefreshKeepsWhatCameBackAndExitsZero() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/fast.xml") { _ in .text(ChangingFeed(["Fast one", "Fast two"]).rss, contentType: "application/rss+xml") }
        server.route("/slow.xml") { _ in
            TestHTTPServer.Response(status: 200, body: Array(ChangingFeed(["Slow"]).rss.utf8), delay: 60)
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "fast", "type": "feed", "options": {"url": "\(server.baseURL)/fast.xml"}},
              {"id": "slow", "type": "feed", "options": {"url": "\(server.baseURL)/slow.xml"}}
            ]}
            """)
        let watch = try startWatch()
        XCTAssertTrue(watch.waitForOutput("fast feed: 2 new"), watch.stderr)
        XCTAssertTrue(BackgroundCommand.waitUntil(timeout: 10) { server.requests.contains { $0.path == "/slow.xml" } })
        let stopped = Date()
        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(timeout: 20), 0, watch.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 10, "the slow fetch is abandoned, not awaited")
        XCTAssertEqual(try storedTitles(), ["Fast one", "Fast two"])
        let providers = try aggr("providers", "--format", "json")
        XCTAssertFalse(providers.stdout.contains("backing off"), "a stopped fetch is no failure: \(providers.stdout)")
    }
}

/// `make install`'s file layout, with the debug binary: completions generated by the binary,
/// the systemd user unit pointing at the installed binary.
final class InstallLayoutTests: EndToEndTestCase {
    func testInstallPutsCompletionsAndTheUserUnitInPlace() throws {
        let script = SharedFixtures.repositoryRoot() + "/scripts/install"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [runner.binary]
        process.environment = ["DESTDIR": directory.file("root"), "PREFIX": "/opt/aggr", "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let root = directory.file("root/opt/aggr")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "\(root)/bin/aggr"))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "\(root)/bin/aggr-serve"), "aggr serve runs it from beside aggr")
        let bash = try String(contentsOfFile: "\(root)/share/bash-completion/completions/aggr", encoding: .utf8)
        XCTAssertTrue(bash.contains("watch") && bash.contains("notify"), "completions know the new commands")
        XCTAssertTrue(try String(contentsOfFile: "\(root)/share/zsh/site-functions/_aggr", encoding: .utf8).contains("#compdef aggr"))
        XCTAssertTrue(try String(contentsOfFile: "\(root)/share/fish/vendor_completions.d/aggr.fish", encoding: .utf8).contains("watch"))
        let unit = try String(contentsOfFile: "\(root)/lib/systemd/user/aggr-watch.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("ExecStart=/opt/aggr/bin/aggr watch\n"), unit)
        XCTAssertTrue(unit.contains("WantedBy=default.target"), unit)
        XCTAssertFalse(unit.contains("@BINDIR@"), unit)
    }
}
