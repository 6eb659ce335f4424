import Aggregator
import AggregatorTestSupport
import Foundation
import PostgresStorage
import Synchronization
import XCTest

/// On PostgreSQL any number of `aggr watch` processes share the refresh: each claims the
/// providers it fetches, so none is fetched twice in an interval, and a worker killed
/// mid-pass leaves its claims to expire for the others to take over.
final class WorkerTests: EndToEndTestCase {
    static func rss(_ number: Substring) -> String {
        """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Feed \(number)</title>
        <item><title>Post \(number)a</title><link>https://feeds.example/\(number)/a</link><guid>\(number)a</guid></item>
        <item><title>Post \(number)b</title><link>https://feeds.example/\(number)/b</link><guid>\(number)b</guid></item>
        </channel></rss>
        """
    }

    func testThreeWatchesShareAThousandFeedsAndTakeOverAKilledOnesClaims() throws {
        let cluster = try PostgresCluster.shared.get()
        let database = try cluster.createDatabase()
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed/") { request in
            var response = TestHTTPServer.Response.text(Self.rss(request.path.dropFirst(6)), contentType: "application/rss+xml")
            response.delay = 0.02
            return response
        }
        let count = 1_000
        let providers = (0..<count).map {
            #"{"id": "f\#($0)", "type": "feed", "interval": "1h", "options": {"url": "\#(server.baseURL)/feed/\#($0)"}}"#
        }
        directory.write("providers.json", #"{"providers": [\#(providers.joined(separator: ",\n"))]}"#)
        var environment = runner.environment.merging(cluster.environment) { $1 }
        environment["AGGR_DB"] = database
        environment["AGGR_REFRESH_LEASE"] = "3"
        environment.removeValue(forKey: "AGGR_NOW")
        let workers = try (0..<3).map { _ in
            try BackgroundCommand(binary: runner.binary, arguments: ["watch"], directory: directory.path, environment: environment)
        }
        defer { for worker in workers where worker.isRunning { worker.send(SIGKILL) } }

        // Midway through the pass, one worker is killed outright: no chance to release.
        XCTAssertTrue(BackgroundCommand.waitUntil(timeout: 60) { server.requests.count >= 150 }, "the pass started")
        workers[0].send(SIGKILL)
        let store = try PostgresStore(url: database, environment: cluster.environment)
        let everything = BackgroundCommand.waitUntil(timeout: 120) { (try? store.itemCounts().count) == count }
        let stored = try store.itemCounts().count
        XCTAssertTrue(everything, "every feed stored: \(stored) of \(count)")
        // Nothing is due for an hour: the survivors fetch nothing more.
        let settled = server.requests.count
        Thread.sleep(forTimeInterval: 4)
        XCTAssertEqual(server.requests.count, settled, "no feed fetched again within its interval")
        for worker in workers.dropFirst() {
            worker.send(SIGTERM)
            XCTAssertEqual(worker.waitForExit(timeout: 30), 0, worker.stderr)
        }

        let fetches = Dictionary(grouping: server.requests, by: \.path).mapValues(\.count)
        XCTAssertEqual(fetches.count, count, "every feed was fetched")
        let twice = fetches.filter { $0.value > 1 }
        print("WorkerTests: \(server.requests.count) fetches of \(count) feeds, \(twice.count) fetched twice")
        // Only what the killed worker had claimed (a claim of 16 and 32 in flight at most) is
        // fetched again, by whoever takes its expired claims over.
        XCTAssertLessThanOrEqual(twice.count, 48, "fetched twice: \(twice.keys.sorted().prefix(10))")
        XCTAssertTrue(twice.values.allSatisfy { $0 == 2 }, "\(twice)")
        XCTAssertEqual(try store.itemCounts().values.map(\.total).reduce(0, +), 2 * count, "nothing lost, nothing doubled")
        for worker in workers.dropFirst() {
            XCTAssertTrue(worker.stderr.contains(" new"), "each survivor did part of the work: \(worker.stderr.suffix(500))")
        }
    }

    /// A rate-limit budget (one API, one token) holds across workers: a refresh that started
    /// before another worker found the budget spent skips the providers sharing it when it
    /// gets to them, sending them no request.
    func testARateLimitAnotherWorkerMetHoldsForTheProvidersSharingItsBudget() throws {
        let cluster = try PostgresCluster.shared.get()
        let database = try cluster.createDatabase()
        let server = try TestHTTPServer()
        defer { server.stop() }
        // The feeds hold the first refresh until the other worker is done.
        let otherWorkerDone = Mutex(false)
        server.route("/feed/") { request in
            _ = BackgroundCommand.waitUntil(timeout: 60) { otherWorkerDone.withLock { $0 } }
            return .text(Self.rss(request.path.dropFirst(6)), contentType: "application/rss+xml")
        }
        let reset = String(Int(Date().timeIntervalSince1970) + 3_600)
        server.route("/repos/o/") { _ in .text("[]", headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", reset)]) }
        let base = server.baseURL
        // 32 feeds fill the first worker's claims in flight: it claims the GitHub providers
        // once one of them is done.
        let feeds = (0..<32).map { #"{"id": "f\#($0)", "type": "feed", "options": {"url": "\#(base)/feed/\#($0)"}}"# }
        let github = ["a", "b"].map {
            #"{"id": "gh\#($0)", "type": "github", "api_url": "\#(base)", "web_url": "\#(base)", "token_env": "GH_TEST_TOKEN", "sections": ["events/o/\#($0)"]}"#
        }
        directory.write("providers.json", #"{"providers": [\#((feeds + github).joined(separator: ",\n"))]}"#)
        var environment = runner.environment.merging(cluster.environment) { $1 }
        environment["AGGR_DB"] = database
        environment["GH_TEST_TOKEN"] = "ghp_budgetBUDGET0123456789abcdefABCDEF01"
        environment.removeValue(forKey: "AGGR_NOW")
        let first = try BackgroundCommand(
            binary: runner.binary, arguments: ["refresh"], directory: directory.path, environment: environment)
        defer { if first.isRunning { first.send(SIGKILL) } }
        XCTAssertTrue(BackgroundCommand.waitUntil(timeout: 30) { server.requests.count >= 4 }, "the first refresh is under way")

        // Another worker refreshes gha meanwhile and finds the budget spent.
        let second = try runner.run(["refresh", "gha"], in: directory.path, extraEnvironment: environment)
        otherWorkerDone.withLock { $0 = true }
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(first.waitForExit(timeout: 60), 0, first.stderr)
        let paths = server.requests.map(\.path)
        XCTAssertEqual(paths.filter { $0.hasPrefix("/repos/o/a") }.count, 1, "gha fetched once, by the second worker")
        XCTAssertEqual(paths.filter { $0.hasPrefix("/repos/o/b") }.count, 0, "ghb shares the spent budget: no request")
        XCTAssertTrue(first.stderr.contains("ghb: skipped: rate limited until"), first.stderr)
        XCTAssertTrue(first.stderr.contains("(budget shared with gha)"), first.stderr)
        XCTAssertFalse(first.stderr.contains("ghp_") || second.stderr.contains("ghp_"), "no token in output")
    }
}
