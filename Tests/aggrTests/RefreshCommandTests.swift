import Aggregator
import AggregatorTestSupport
import XCTest

final class RefreshCommandTests: EndToEndTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestHTTPServer()
        let hot = try fixture("v2ex-hot.json")
        let latest = try fixture("v2ex-latest.json")
        server.route("/api/topics/hot.json") { _ in .text(hot, headers: [("ETag", "\"hot-1\"")]) }
        server.route("/api/topics/latest.json") { request in
            request.header("If-None-Match") == "\"latest-1\"" ? .init(status: 304) : .text(latest, headers: [("ETag", "\"latest-1\"")])
        }
    }

    override func tearDown() {
        server.stop()
        super.tearDown()
    }

    func writeConfig(extra: String = "") {
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "sections": ["hot", "latest"], "api_url": "\(server.baseURL)",
               "web_url": "https://www.v2ex.com", "interval": "10m"}\(extra)
            ]}
            """)
    }

    func testRefreshStoresThenHonoursTheIntervalThenSeesNotModified() throws {
        writeConfig()
        let first = try aggr("refresh")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "")
        let lines = first.stderr.split(separator: "\n").map(String.init)
        // Both sections carry topic 900001 and run concurrently: either may store it first.
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(Set(lines.dropLast().map { $0.split(separator: ":")[0] }), ["v2ex hot", "v2ex latest"])
        XCTAssertTrue(lines.last?.hasPrefix("1 provider refreshed in ") == true)
        XCTAssertTrue(lines.last?.hasSuffix(": 3 new, 1 updated, 0 unchanged, 0 failed") == true, lines.last ?? "")
        XCTAssertTrue(server.requests.allSatisfy { $0.header("User-Agent")?.hasPrefix("aggr/") == true })

        let timeline = try aggr("timeline", "--format", "tsv")
        XCTAssertEqual(
            timeline.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[7]) },
            [
                "https://www.v2ex.com/t/900003", "https://www.v2ex.com/t/900001", "https://www.v2ex.com/t/900002",
            ])

        let again = try aggr("refresh")
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(
            again.stderr.hasPrefix("v2ex: skipped: fetched recently; next until 2026-11-21T00:10:00Z (in 10m); --force fetches now\n"),
            again.stderr)

        let forced = try aggr("refresh", "--force")
        XCTAssertEqual(forced.status, 0)
        XCTAssertTrue(forced.stderr.contains("v2ex latest: not modified"), forced.stderr)
        XCTAssertTrue(forced.stderr.contains("v2ex hot: not modified"), "same body as last time: \(forced.stderr)")
        XCTAssertTrue(
            forced.stderr.contains(": 0 new, 0 updated, 0 unchanged, 2 sections not modified, 0 failed"),
            "the summary counts the sections that were not modified: \(forced.stderr)")
        XCTAssertEqual(server.requests.last { $0.path == "/api/topics/latest.json" }?.header("If-None-Match"), "\"latest-1\"")

        let providers = try aggr("providers")
        XCTAssertTrue(providers.stdout.contains("v2ex  v2ex  hot,latest  3      3       just now    ok"), providers.stdout)
    }

    func testFailuresAreReportedPerProviderAndStoredItemsStillShow() throws {
        let closed = try TestHTTPServer()
        let closedURL = closed.baseURL
        closed.stop()
        writeConfig(extra: #", {"id": "down", "type": "v2ex", "sections": ["hot"], "api_url": "\#(closedURL)"}"#)
        let partial = try aggr("refresh")
        XCTAssertEqual(partial.status, 2, partial.stderr)
        XCTAssertTrue(partial.stderr.contains("down hot: failed: cannot connect to \(closedURL)/api/topics/hot.json"), partial.stderr)
        XCTAssertTrue(partial.stderr.contains("1 failed (down)"), partial.stderr)

        let onlyDown = try aggr("refresh", "down", "--force")
        XCTAssertEqual(onlyDown.status, 1, "none could run")
        XCTAssertEqual(try aggr("timeline", "--format", "ndjson").stdout.split(separator: "\n").count, 3, "what is stored still prints")
        let providers = try aggr("providers")
        XCTAssertTrue(providers.stdout.contains("error (2 in a row, retry after "), providers.stdout)
    }

    func testUnknownProviderIsAUsageError() throws {
        writeConfig()
        let result = try aggr("refresh", "v2x")
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "aggr: no provider \"v2x\" in providers.json (did you mean \"v2ex\"?)\n")
        // An early exit must never race work started in the background: loading libcurl on
        // a thread of its own made 1 exit in 17 here end in SIGSEGV instead of 64.
        let statuses = try (0..<40).map { _ in try aggr("refresh", "v2x").status }
        XCTAssertEqual(Set(statuses), [64])
    }

    func testADatabaseThatCannotOpenFailsAloneWhileLibcurlLoads() throws {
        writeConfig()
        // libcurl loads on the client's thread while the database opens: a database that
        // cannot be opened must end in its own error every time, never in a crash at exit.
        let folder = directory.file("folder.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let results = try (0..<40).map { _ in try aggr("refresh", "--db", folder) }
        XCTAssertEqual(Set(results.map(\.status)), [1])
        XCTAssertTrue(results.allSatisfy { $0.stderr.contains("cannot be opened") }, results[0].stderr)
    }

    func testDemoReplaysTheDefaultProvidersOffline() throws {
        let root = SharedFixtures.repositoryRoot()
        let result = try runner.run(
            ["refresh", "--config", "\(root)/providers.json", "--replay", "\(root)/demo/recordings"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        let timeline = try runner.run(["timeline", "--config", "\(root)/providers.json", "--format", "ndjson"], in: directory.path)
        XCTAssertEqual(
            timeline.stdout.split(separator: "\n").count, 26,
            "V2EX hot, latest, two nodes; GitHub releases and trending; Gitee featured and releases; Dribbble popular")
    }

    func testRecordWritesRedactedRecordingsThatReplay() throws {
        writeConfig()
        let recordings = directory.file("rec")
        XCTAssertEqual(try aggr("refresh", "--record", recordings).status, 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: recordings).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(files.count, 2)
        server.stop()
        XCTAssertEqual(try aggr("refresh", "--replay", recordings, "--force", "--db", directory.file("replay.sqlite")).status, 0)
        XCTAssertEqual(
            try aggr("timeline", "--db", directory.file("replay.sqlite"), "--format", "ndjson").stdout.split(separator: "\n").count, 3)
    }
}
