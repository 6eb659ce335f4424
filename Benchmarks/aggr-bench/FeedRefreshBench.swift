import Aggregator
import AggregatorTestSupport
import Foundation

/// Refreshes 10, 100, 1,000 and 10,000 RSS feeds on up to 100 loopback hosts answering after
/// 200 ms, with aggr beside the network floor (`curl --parallel` fetching the same URLs), and
/// up to 1,000 beside `newsboat -x reload` (16 reload threads) and `sfeed_update` (defaults).
struct FeedRefreshBench {
    var run: BenchRun

    static func feed(host: Int) -> String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Host \(host)</title><link>https://h\(host).example/</link>\n"
        for index in 0..<20 {
            text += "<item><title>Post \(index) on host \(host)</title><link>https://h\(host).example/p/\(index)</link>"
            text +=
                "<guid>https://h\(host).example/p/\(index)</guid><pubDate>Fri, 20 Nov 2026 \(String(format: "%02d", index)):00:00 GMT</pubDate>"
            text += "<description>Body \(index)</description></item>\n"
        }
        return text + "</channel></rss>\n"
    }

    func measure(directory: String) throws {
        for count in [10, 100, 1_000, 10_000] { try measure(feeds: count, directory: directory) }
    }

    func measure(feeds count: Int, directory: String) throws {
        let hosts = min(count, 100)
        print(
            "== refresh \(count) RSS feeds on 127.0.0.1–\(hosts), each answering after 200 ms (goals: ≤ 1.3× curl --parallel, ≥ 12× sfeed_update, ≥ 8× newsboat with 16 threads)"
        )
        let servers = try Self.startServers(hosts: hosts)
        defer { servers.forEach { $0.stop() } }
        let urls = (0..<count).map { "\(servers[$0 % hosts].baseURL)/feed-\($0).xml" }
        let config = "\(directory)/feeds-providers.json"
        try Self.writeConfig(urls: urls, to: config)
        var aggrTimes: [Double] = []
        var peak = 0.0
        let stored = "\(directory)/feeds-stored.sqlite"
        for round in 0..<5 {
            let database = "\(directory)/feeds-\(round).sqlite"
            let result = try run.spawn(run.aggr, ["refresh", "--config", config, "--db", database])
            aggrTimes.append(result.seconds)
            peak = max(peak, result.peakMegabytes)
            // The last run's items are the shell's input below.
            if round == 4 { BenchRun.moveDatabase(database, to: stored) } else { BenchRun.removeDatabase(database) }
        }
        defer { BenchRun.removeDatabase(stored) }
        aggrTimes.sort()
        let aggr = aggrTimes[2]
        let floor = try curlFloor(urls: urls, directory: directory)
        print(
            String(
                format: "   aggr refresh: median %.3f s (5 runs), peak RSS %.1f MB | curl --parallel (floor): median %.3f s → %.2f×", aggr,
                peak, floor, aggr / floor))
        if let store = try shellStore(from: stored, directory: directory) {
            print(
                String(
                    format:
                        "   fetch-and-store floor: curl %.3f s + the sqlite3 shell storing the same %d items %.3f s = %.3f s → aggr %.2f× of it",
                    floor, store.items, store.seconds, floor + store.seconds, aggr / (floor + store.seconds)))
        }
        guard count <= 1_000 else { return }

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sfeed_update") {
            var rc = "sfeedpath=\"\(directory)/sfeed\"\nfeeds() {\n"
            for (index, url) in urls.enumerated() { rc += "\tfeed \"f\(index + 1)\" \"\(url)\"\n" }
            rc += "}\n"
            try rc.write(toFile: "\(directory)/sfeedrc", atomically: true, encoding: .utf8)
            var times: [Double] = []
            for _ in 0..<3 {
                try? FileManager.default.removeItem(atPath: "\(directory)/sfeed")
                times.append(try run.spawn("/usr/bin/sfeed_update", ["\(directory)/sfeedrc"]).seconds)
            }
            times.sort()
            print(String(format: "   sfeed_update: median %.2f s (3 runs) → aggr is %.1f× faster", times[1], times[1] / aggr))
        } else {
            print("   sfeed_update not installed (`apt-get install sfeed`)")
        }

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/newsboat") {
            try urls.joined(separator: "\n").write(toFile: "\(directory)/newsboat-urls", atomically: true, encoding: .utf8)
            try "reload-threads 16\n".write(toFile: "\(directory)/newsboat-config", atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: "\(directory)/newsboat-cache.db")
            let result = try run.spawn(
                "/usr/bin/newsboat",
                [
                    "-x", "reload", "-u", "\(directory)/newsboat-urls", "-c", "\(directory)/newsboat-cache.db", "-C",
                    "\(directory)/newsboat-config",
                ])
            print(
                String(
                    format: "   newsboat -x reload (16 threads): %.2f s (1 run) → aggr is %.1f× faster", result.seconds,
                    result.seconds / aggr))
        } else {
            print("   newsboat not installed (`apt-get install newsboat`)")
        }
    }

    /// One server per host on 127.0.0.1…`hosts`, each answering any feed path after 200 ms.
    static func startServers(hosts: Int) throws -> [TestHTTPServer] {
        try (1...hosts).map { host -> TestHTTPServer in
            let server = try TestHTTPServer(host: "127.0.0.\(host)")
            let body = feed(host: host)
            server.route("/feed") { _ in
                var response = TestHTTPServer.Response.text(body, contentType: "application/rss+xml; charset=utf-8")
                response.delay = 0.2
                return response
            }
            return server
        }
    }

    /// A providers.json with one feed provider per URL.
    static func writeConfig(urls: [String], to path: String) throws {
        let entries = urls.enumerated().map {
            "{\"id\": \"f\($0.offset + 1)\", \"type\": \"feed\", \"options\": {\"url\": \"\($0.element)\"}}"
        }
        try "{\"providers\": [\(entries.joined(separator: ",\n"))]}".write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The storage floor: the sqlite3 shell copying the items a refresh stored into an empty
    /// database with aggr's schema, search index included, in one statement each (what
    /// SQLite itself needs to store them); the median of 3 runs, or nil without the shell.
    func shellStore(from stored: String, directory: String) throws -> (seconds: Double, items: Int)? {
        guard FileManager.default.isExecutableFile(atPath: UserCommandBench.shell) else { return nil }
        let target = "\(directory)/feeds-shell.sqlite"
        let script = "\(directory)/feeds-shell.sql"
        try """
        ATTACH '\(stored)' AS stored;
        BEGIN;
        INSERT INTO item SELECT * FROM stored.item;
        INSERT INTO item_fts (rowid, title, summary, author, tags)
            SELECT ref, title, summary, author, (SELECT group_concat(value, ' ') FROM json_each(tags)) FROM item;
        COMMIT;
        SELECT count(*) FROM item;
        """.write(toFile: script, atomically: true, encoding: .utf8)
        var times: [Double] = []
        var items = 0
        for _ in 0..<3 {
            BenchRun.removeDatabase(target)
            _ = try run.spawn(run.aggr, ["import", "/dev/null", "--db", target])
            _ = try run.spawn("/bin/sync", [])
            let result = try run.spawn("/bin/sh", ["-c", "\(UserCommandBench.shell) '\(target)' < '\(script)'"])
            times.append(result.seconds)
            items = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        BenchRun.removeDatabase(target)
        return (times.sorted()[1], items)
    }

    /// The network floor: curl fetching the same URLs at once (`--parallel`, up to 300 in
    /// flight, no limit per host), bodies discarded; the median of 5 runs.
    func curlFloor(urls: [String], directory: String) throws -> Double {
        let list = "\(directory)/curl-urls"
        try urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined().write(toFile: list, atomically: true, encoding: .utf8)
        var times: [Double] = []
        for _ in 0..<5 {
            times.append(
                try run.spawn("/usr/bin/curl", ["--parallel", "--parallel-immediate", "--parallel-max", "300", "-s", "-K", list]).seconds)
        }
        return times.sorted()[2]
    }
}
