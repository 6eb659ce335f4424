import Aggregator
import AggregatorTestSupport
import Foundation

/// Measures `aggr refresh` against many slow loopback hosts and raw client throughput.
struct RefreshBench {
    var run: BenchRun

    /// A V2EX hot list of ten topics whose ids are unique to `host`.
    static func payload(host: Int) -> String {
        let topics = (0..<10).map { index -> String in
            let id = host * 100 + index
            return """
                {"id": \(id), "title": "Topic \(id) from host \(host)", "url": "https://www.v2ex.com/t/\(id)",
                 "content": "Body of topic \(id)", "content_rendered": "<p>Body of topic \(id)</p>", "replies": \(index),
                 "member": {"id": 1, "username": "user\(host)"}, "node": {"id": 1, "name": "bench", "title": "Bench"},
                 "created": \(1_795_219_200 - id), "last_modified": \(1_795_219_200 - id), "last_touched": \(1_795_219_200 - id)}
                """
        }
        return "[" + topics.joined(separator: ",") + "]"
    }

    /// 200 servers on 127.0.0.1–200, each answering the V2EX hot list after 200 ms.
    static func startServers() throws -> [TestHTTPServer] {
        try (1...200).map { host in
            let server = try TestHTTPServer(host: "127.0.0.\(host)")
            let body = payload(host: host)
            server.route("/api/topics/hot.json") { _ in
                var response = TestHTTPServer.Response.text(body)
                response.delay = 0.2
                return response
            }
            return server
        }
    }

    /// A providers.json with one v2ex provider per server.
    static func writeConfig(for servers: [TestHTTPServer], to path: String) throws {
        let entries = servers.enumerated().map { index, server in
            "{\"id\": \"h\(index + 1)\", \"type\": \"v2ex\", \"sections\": [\"hot\"], \"api_url\": \"\(server.baseURL)\"}"
        }
        try "{\"providers\": [\(entries.joined(separator: ",\n"))]}".write(toFile: path, atomically: true, encoding: .utf8)
    }

    func measureRefresh(directory: String) throws {
        print("== aggr refresh of 200 providers on 127.0.0.1–200, each answering after 200 ms (goal ≤ 0.6 s, ≤ 40 MB)")
        let servers = try Self.startServers()
        defer { servers.forEach { $0.stop() } }
        let config = "\(directory)/refresh-providers.json"
        try Self.writeConfig(for: servers, to: config)
        var times: [Double] = []
        var peak = 0.0
        for round in 0..<(Int(ProcessInfo.processInfo.environment["AGGR_BENCH_ROUNDS"] ?? "") ?? 5) {
            let database = "\(directory)/refresh-\(round).sqlite"
            let result = try run.spawn(run.aggr, ["refresh", "--config", config, "--db", database], stderrTo: "\(directory)/refresh.log")
            times.append(result.seconds)
            peak = max(peak, result.peakMegabytes)
            let store = try Store(path: database)
            let stored = try store.itemCounts().values.reduce(0) { $0 + $1.total }
            guard stored == 2_000 else { throw BenchFailure("refresh stored \(stored) items, expected 2000") }
        }
        times.sort()
        print(
            String(
                format: "   median %.2f s, best %.2f s, worst %.2f s, peak RSS %.1f MB (%d runs, fresh database each, 2000 items stored)",
                times[times.count / 2], times[0], times[times.count - 1], peak, times.count))
    }

    func measureThroughput() async throws {
        print("== requests per second against a zero-latency loopback endpoint (CurlHTTPClient, 4000 requests)")
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/") { _ in .text("{\"ok\": true}") }
        for (label, perHost) in [("default limits (4 per host)", 4), ("32 per host", 32)] {
            var settings = HTTPClientSettings()
            settings.maxPerHost = perHost
            let client = CurlHTTPClient(settings: settings)
            let url = server.baseURL
            let start = Date()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<32 {
                    group.addTask {
                        for index in 0..<125 { _ = try await client.send(HTTPRequest(url: "\(url)/\(worker)/\(index)")) }
                    }
                }
                try await group.waitForAll()
            }
            let elapsed = Date().timeIntervalSince(start)
            print(String(format: "   %@: %.0f requests/s", label, 4_000 / elapsed))
        }
    }
}
