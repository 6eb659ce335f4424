import Aggregator
import AggregatorTestSupport
import XCTest

final class RefresherTests: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!
    var server: TestHTTPServer!
    let registry = ProviderRegistry([SampleForumProvider.self])

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        store = try Store(path: directory.file("aggr.sqlite"))
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
        store = nil
        directory = nil
    }

    static func ndjson(_ ids: [String], title: String = "Title") -> String {
        ids.map { ItemJSON.line(ItemFactory.item(id: $0, title: "\(title) \($0)")) }.joined(separator: "\n")
    }

    func configuration(
        _ entries: [(id: String, sections: [String])], interval: String? = nil, tokenEnv: String? = nil
    ) throws -> Configuration {
        var providers: [String] = []
        for entry in entries {
            var fields = [
                "\"id\": \"\(entry.id)\"", "\"type\": \"forum\"", "\"api_url\": \"\(server.baseURL)\"",
                "\"sections\": [\(entry.sections.map { "\"\($0)\"" }.joined(separator: ", "))]",
            ]
            if let interval { fields.append("\"interval\": \"\(interval)\"") }
            if let tokenEnv { fields.append("\"token_env\": \"\(tokenEnv)\"") }
            providers.append("{\(fields.joined(separator: ", "))}")
        }
        let text = "{\"providers\": [\(providers.joined(separator: ", "))]}"
        return try ConfigLoader(registry: registry).parse(bytes: Array(text.utf8), file: "providers.json")
    }

    func refresher(
        _ configuration: Configuration, http: (any HTTPClient)? = nil, now: Date = ItemFactory.epoch, environment: [String: String] = [:]
    )
        -> Refresher
    {
        Refresher(
            configuration: configuration, registry: registry, store: store, http: http ?? CurlHTTPClient(), environment: environment,
            now: now)
    }

    func testSlowProvidersRunConcurrently() async throws {
        server.route("/") { request in
            var response = TestHTTPServer.Response.text(Self.ndjson([String(request.path.dropFirst())]))
            response.delay = 0.3
            return response
        }
        var settings = HTTPClientSettings()
        settings.maxPerHost = 8
        let configuration = try configuration((0..<3).map { ("p\($0)", ["hot", "latest"]) })
        let start = Date()
        let summary = try await refresher(configuration, http: CurlHTTPClient(settings: settings)).refresh()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0, "six 300 ms sections take about one latency")
        XCTAssertEqual(summary.totals.new, 6)
        XCTAssertEqual(summary.exitStatus, 0)
    }

    func testNotModifiedSectionsAreNotReparsedAndValidatorsWaitForTheIngest() async throws {
        server.route("/hot") { request in
            if request.header("If-None-Match") == "\"v1\"" { return TestHTTPServer.Response(status: 304) }
            return .text(Self.ndjson(["1", "2"]), headers: [("ETag", "\"v1\"")])
        }
        server.route("/latest") { _ in .text(Self.ndjson(["3"])) }
        let configuration = try configuration([("forum", ["hot", "latest"])])
        let first = try await refresher(configuration).refresh()
        XCTAssertEqual(first.totals, IngestResult(new: 3))
        let second = try await refresher(configuration, now: ItemFactory.epoch.addingTimeInterval(3_600)).refresh()
        XCTAssertEqual(second.outcomes.first?.unchangedSections, 2, "a 304 and an identical body both count as not modified")
        XCTAssertEqual(second.totals, IngestResult())
        XCTAssertEqual(server.requests.filter { $0.path == "/hot" }.last?.header("If-None-Match"), "\"v1\"")
        XCTAssertEqual(try store.validators(for: "\(server.baseURL)/hot", provider: "forum")?.etag, "\"v1\"")
    }

    func testTwoProvidersReadingOneURLEachStoreTheirItems() async throws {
        server.route("/hot") { _ in .text(Self.ndjson(["1", "2"]), headers: [("ETag", "\"v1\"")]) }
        _ = try await refresher(try configuration([("first", ["hot"])])).refresh()
        let second = try await refresher(try configuration([("second", ["hot"])])).refresh()
        XCTAssertEqual(second.totals, IngestResult(new: 2), "the first provider's validators are not the second's")
        XCTAssertNil(server.requests.last?.header("If-None-Match"))
        XCTAssertEqual(try store.itemCounts().mapValues(\.total), ["first": 2, "second": 2])
    }

    func testOneFailingProviderNeverStopsTheOthers() async throws {
        server.route("/hot") { _ in .text(Self.ndjson(["1", "2"])) }
        server.route("/node/broken") { _ in .text("{\"message\": \"upstream exploded\"}", status: 500) }
        server.route("/node/garbage") { _ in .text("<html>not ndjson") }
        let configuration = try configuration([("good", ["hot"]), ("bad", ["node/broken", "hot"]), ("worse", ["node/garbage"])])
        let summary = try await refresher(configuration).refresh()
        XCTAssertEqual(summary.failedProviders, ["bad", "worse"])
        XCTAssertEqual(summary.exitStatus, 2)
        XCTAssertEqual(try store.itemCounts().mapValues(\.total), ["good": 2, "bad": 2], "the bad provider's good section is stored too")
        XCTAssertEqual(summary.outcomes.first { $0.provider == "bad" }?.storedSections, 1)

        let partial = try await refresher(try self.configuration([("bad", ["node/broken", "hot"])])).refresh(force: true)
        XCTAssertEqual(partial.failedProviders, ["bad"])
        XCTAssertEqual(partial.exitStatus, 2, "every provider failed somewhere, yet one section came back")
        let nothing = try await refresher(try self.configuration([("bad", ["node/broken"]), ("worse", ["node/garbage"])])).refresh(
            force: true)
        XCTAssertEqual(nothing.exitStatus, 1, "nothing came back")
        let failure = try XCTUnwrap(summary.outcomes.first { $0.provider == "bad" }?.failures.first)
        XCTAssertEqual(failure.section, "node/broken")
        XCTAssertEqual(failure.message, "HTTP 500 from \(server.baseURL)/node/broken: upstream exploded")
        let state = try XCTUnwrap(store.providerStates()["bad"])
        XCTAssertEqual(state.lastError, "node/broken: HTTP 500 from \(server.baseURL)/node/broken: upstream exploded")
    }

    func testBackoffIsPersistedAndGrows() async throws {
        server.route("/node/down") { _ in .text("node/down", status: 503) }
        let configuration = try configuration([("flaky", ["node/down"])])
        let start = ItemFactory.epoch
        let first = try await refresher(configuration, now: start).refresh()
        XCTAssertEqual(first.exitStatus, 1, "none could run")
        var state = try XCTUnwrap(store.providerStates()["flaky"])
        XCTAssertEqual(state.consecutiveFailures, 1)
        XCTAssertEqual(state.waitReason, .backoff)
        let firstWait = try XCTUnwrap(state.nextAllowedFetch).timeIntervalSince(start)
        XCTAssertTrue((48...72).contains(firstWait), "one minute ±20%, got \(firstWait)")

        let skipped = try await refresher(configuration, now: start.addingTimeInterval(10)).refresh()
        XCTAssertEqual(skipped.skipped.map(\.provider), ["flaky"])
        XCTAssertEqual(skipped.exitStatus, 1)
        XCTAssertEqual(server.requests.count, 1, "a provider backing off is not fetched")

        _ = try await refresher(configuration, now: start.addingTimeInterval(10)).refresh(force: true)
        state = try XCTUnwrap(store.providerStates()["flaky"])
        XCTAssertEqual(state.consecutiveFailures, 2)
        let secondWait = try XCTUnwrap(state.nextAllowedFetch).timeIntervalSince(start.addingTimeInterval(10))
        XCTAssertTrue((96...144).contains(secondWait), "two minutes ±20%, got \(secondWait)")

        server.route("/node/down") { _ in .text(Self.ndjson(["1"])) }
        _ = try await refresher(configuration, now: start.addingTimeInterval(600)).refresh()
        state = try XCTUnwrap(store.providerStates()["flaky"])
        XCTAssertEqual(state.consecutiveFailures, 0)
        XCTAssertNil(state.lastError)
        XCTAssertEqual(state.waitReason, .interval)
    }

    func testRetryAfterAndRateLimitHeadersAreHonouredEvenWithForce() async throws {
        server.route("/node/limited") { _ in .text("{\"message\": \"slow down\"}", status: 429, headers: [("Retry-After", "120")]) }
        let reset = Int(ItemFactory.epoch.timeIntervalSince1970) + 900
        server.route("/node/spent") { _ in
            .text(Self.ndjson(["9"]), headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", String(reset))])
        }
        server.route("/node/dated") { _ in
            .text("busy", status: 503, headers: [("Retry-After", "Sat, 21 Nov 2026 01:00:00 GMT")])
        }
        // All three share one budget (same type, API and no token), so each is refreshed on
        // its own: together, whichever answered first would block the others.
        var failed: [String] = []
        for (id, section) in [("a", "node/limited"), ("b", "node/spent"), ("c", "node/dated")] {
            failed += try await refresher(try self.configuration([(id, [section])])).refresh().failedProviders
        }
        XCTAssertEqual(failed, ["a", "c"])
        let configuration = try configuration([("a", ["node/limited"]), ("b", ["node/spent"]), ("c", ["node/dated"])])
        let states = try store.providerStates()
        XCTAssertEqual(states["a"]?.nextAllowedFetch, ItemFactory.epoch.addingTimeInterval(120))
        XCTAssertEqual(states["a"]?.waitReason, .rateLimit)
        XCTAssertEqual(states["b"]?.nextAllowedFetch, ItemFactory.epoch.addingTimeInterval(900), "a spent budget waits for the reset")
        XCTAssertEqual(states["b"]?.waitReason, .rateLimit)
        XCTAssertEqual(states["c"]?.nextAllowedFetch, ItemFactory.epoch.addingTimeInterval(3_600), "HTTP-date Retry-After")
        XCTAssertEqual(try store.itemCounts()["b"]?.total, 1, "the answer that spent the budget is still stored")

        let forced = try await refresher(configuration, now: ItemFactory.epoch.addingTimeInterval(60)).refresh(force: true)
        XCTAssertEqual(Set(forced.skipped.map(\.provider)), ["a", "b", "c"])
        XCTAssertTrue(forced.skipped[0].reason.hasPrefix("rate limited until 2026-11-21T00:02:00Z"), forced.skipped[0].reason)
    }

    func testIntervalIsHonouredUnlessForced() async throws {
        server.route("/hot") { _ in .text(Self.ndjson(["1"])) }
        let configuration = try configuration([("forum", ["hot"])], interval: "30m")
        _ = try await refresher(configuration).refresh()
        let soon = try await refresher(configuration, now: ItemFactory.epoch.addingTimeInterval(600)).refresh()
        XCTAssertEqual(soon.skipped.first?.reason, "fetched recently; next until 2026-11-21T00:30:00Z (in 20m); --force fetches now")
        XCTAssertEqual(soon.exitStatus, 0)
        let forced = try await refresher(configuration, now: ItemFactory.epoch.addingTimeInterval(600)).refresh(force: true)
        XCTAssertEqual(forced.outcomes.count, 1)
        let later = try await refresher(configuration, now: ItemFactory.epoch.addingTimeInterval(4_000)).refresh()
        XCTAssertEqual(later.outcomes.count, 1)
    }

    func testTokensNeverReachErrorsStateOrRecordings() async throws {
        let token = "tok_9f8e7d6c5b4a39281706"
        server.route("/node/private") { request in
            .text("{\"message\": \"token \(request.header("Authorization") ?? "") is not valid\"}", status: 401)
        }
        server.route("/node/echo") { request in
            .text(Self.ndjson(["1"], title: "seen \(request.header("Authorization") ?? "")"), headers: [("Set-Cookie", "session=abc")])
        }
        let configuration = try configuration([("forum", ["node/private", "node/echo"])], tokenEnv: "FORUM_TOKEN")
        let recordings = directory.file("recordings")
        let http = RecordingHTTPClient(wrapping: CurlHTTPClient(), directory: recordings)
        let summary = try await refresher(configuration, http: http, environment: ["FORUM_TOKEN": token]).refresh()
        XCTAssertEqual(server.requests.first?.header("Authorization"), "Bearer \(token)", "the token is sent")
        let message = try XCTUnwrap(summary.outcomes.first?.failures.first?.message)
        XCTAssertEqual(
            message,
            "token rejected (expired or revoked): renew the token in $FORUM_TOKEN (HTTP 401 from \(server.baseURL)/node/private: token Bearer REDACTED is not valid)"
        )
        XCTAssertFalse(try XCTUnwrap(store.providerStates()["forum"]?.lastError).contains(token))
        let files = try FileManager.default.subpathsOfDirectory(atPath: recordings).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(files.count, 2)
        for file in files {
            let text = try String(contentsOfFile: "\(recordings)/\(file)", encoding: .utf8)
            XCTAssertFalse(text.contains(token), file)
            XCTAssertFalse(text.contains("session=abc"), "cookies are not recorded")
        }
    }

    func testRecordThenReplayOffline() async throws {
        server.route("/hot") { _ in .text(Self.ndjson(["1", "2", "3"])) }
        let configuration = try configuration([("forum", ["hot"])])
        let recordings = directory.file("recordings")
        _ = try await refresher(configuration, http: RecordingHTTPClient(wrapping: CurlHTTPClient(), directory: recordings)).refresh()
        server.stop()

        store = try Store(path: directory.file("replayed.sqlite"))
        let replayed = try await refresher(configuration, http: ReplayHTTPClient(directory: recordings)).refresh()
        XCTAssertEqual(replayed.totals.new, 3)
        XCTAssertEqual(replayed.exitStatus, 0)

        let missing = try self.configuration([("forum", ["latest"])])
        let failed = try await refresher(missing, http: ReplayHTTPClient(directory: recordings)).refresh(force: true)
        XCTAssertEqual(failed.outcomes.first?.failures.first?.message, "no recording for \(server.baseURL)/latest in the replay directory")
    }

    func testV2EXStyleRateLimitHeadersAreRead() {
        let response = HTTPResponse(
            status: 200, headers: [("X-Rate-Limit-Remaining", "0"), ("X-Rate-Limit-Limit", "120"), ("X-Rate-Limit-Reset", "1795222800")],
            body: [], url: "https://www.v2ex.com/api/topics/hot.json")
        let signal = RateLimitPolicy.signal(from: response, now: ItemFactory.epoch)
        XCTAssertEqual(signal.remaining, 0)
        XCTAssertEqual(signal.blockedUntil, Date(timeIntervalSince1970: 1_795_222_800))
    }

    func testProvidersOnOneTokenShareTheRateBudget() async throws {
        let reset = Int(ItemFactory.epoch.timeIntervalSince1970) + 1_800
        let server = self.server!
        server.route("/node/spent") { _ in
            // The budget is spent only once both of second's requests are under way, however
            // the two providers' tasks happen to be scheduled (a slow run once reordered them).
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !["/node/later", "/node/after"].allSatisfy({ path in server.requests.contains { $0.path == path } }) {
                usleep(2_000)
            }
            return TestHTTPServer.Response.text(
                Self.ndjson(["1"]), headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", String(reset))])
        }
        server.route("/node/later") { _ in
            var response = TestHTTPServer.Response.text(Self.ndjson(["2"]))
            response.delay = 0.3
            return response
        }
        let configuration = try configuration(
            [("first", ["node/spent"]), ("second", ["node/later", "node/after"])], tokenEnv: "FORUM_TOKEN")
        server.route("/node/after") { _ in .text(Self.ndjson(["3"])) }
        let environment = ["FORUM_TOKEN": "shared-token-123456"]
        let summary = try await refresher(configuration, environment: environment).refresh()
        XCTAssertEqual(summary.totals.new, 3, "requests already under way finish")

        let next = try await refresher(configuration, now: ItemFactory.epoch.addingTimeInterval(600), environment: environment).refresh(
            force: true)
        XCTAssertEqual(Set(next.skipped.map(\.provider)), ["first", "second"], "one spent budget holds back every provider on the token")
        XCTAssertEqual(
            next.skipped.first { $0.provider == "second" }?.reason, "rate limited until 2026-11-21T00:30:00Z (budget shared with first)")

        var separate = configuration
        separate.providers[1].tokenEnv = "OTHER_TOKEN"
        let other = try await refresher(
            separate, now: ItemFactory.epoch.addingTimeInterval(600),
            environment: environment.merging(["OTHER_TOKEN": "another-token-987654"]) { $1 }
        ).refresh(force: true)
        XCTAssertTrue(other.skipped.allSatisfy { $0.provider == "first" }, "a different token has its own budget: \(other.skipped)")
    }
}
