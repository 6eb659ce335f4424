import Aggregator
import AggregatorTestSupport
import Foundation

/// `aggr serve` on a 1M-item database: the time each page, feed and reader-API call takes,
/// measured by curl (libcurl) from loopback, median of 11 after a warm-up (goal: ≤ 100 ms a
/// page; reader ids ≤ 100 ms per 1,000).
struct WebBench {
    var run: BenchRun
    var count = Int(ProcessInfo.processInfo.environment["AGGR_BENCH_WEB_ITEMS"] ?? "") ?? 1_000_000

    func measure(directory: String) throws {
        print("== aggr serve on \(count / 1_000)k items: time per request (goal ≤ 100 ms a page, ≤ 100 ms per 1,000 reader ids)")
        let (database, config) = try BenchPhases.frontEndFixture(in: directory, name: "web", count: count)
        let log = "\(directory)/web.log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let arguments: [String] = [run.aggr, "serve", "--config", config, "--db", database, "--listen", "127.0.0.1:0", "--no-refresh"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, run.aggr, &actions, nil, argv, environ) == 0 else { throw BenchFailure("cannot start aggr serve") }
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        var base = ""
        for _ in 0..<200 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) {
                base = String(text[range])
                break
            }
            usleep(100_000)
        }
        guard !base.isEmpty else {
            throw BenchFailure("aggr serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        let newest = count
        for (label, path) in [
            ("timeline page /", "/"), ("provider tab", "/?tab=p:p3"), ("view tab (regex filter)", "/?tab=v:swift"),
            ("filter box", "/?where=replies%20%3E%205%20and%20title%20~%20%27swift%27"), ("search", "/?q=concurrency"),
            ("item page", "/item/\(newest / 2)"), ("Atom feed (50)", "/feeds/all.atom"), ("provider JSON feed", "/feeds/provider/p5.json"),
        ] {
            print(
                "   " + label.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(format: "%6.1f ms", try median(base + path) * 1_000))
        }
        let login = try curl(["-s", "-X", "POST", "-d", "Email=a&Passwd=x", base + "/accounts/ClientLogin"])
        let auth = login.split(separator: "\n").first { $0.hasPrefix("Auth=") }.map { String($0.dropFirst(5)) } ?? ""
        let header = "Authorization: GoogleLogin auth=\(auth)"
        var continuation = ""
        var times: [Double] = []
        for _ in 0..<5 {
            // curl's own `time_total`, as for the pages above: timing the spawned curl
            // counted its start-up and the pipe (88 ms against the request's 7–11 ms).
            let output = try curl([
                "-s", "-H", header, "-w", "\n%{time_total}",
                base + "/reader/api/0/stream/items/ids?n=1000" + (continuation.isEmpty ? "" : "&c=" + continuation),
            ])
            guard let split = output.lastIndex(of: "\n"), let seconds = Double(output[output.index(after: split)...]) else { break }
            times.append(seconds)
            let body = String(output[..<split])
            guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                let next = object["continuation"] as? String
            else { break }
            continuation = next
        }
        guard !times.isEmpty else { throw BenchFailure("reader ids: no page answered") }
        times.sort()
        print(
            String(
                format: "   reader ids, 1,000 a page: median %.1f ms over %d pages (c= paging)", times[times.count / 2] * 1_000, times.count
            ))
        try ReaderSyncBench(run: run, base: base, header: header, database: database, config: config).measure(directory: directory)
        try measureLoad(base: base, header: header, server: pid)
    }

    /// 200 concurrent clients for 30 s each (wrk, 2 threads, loopback) on the timeline page,
    /// the Atom feed and reader ids: requests/s, p99 latency, errors, and the server's RSS
    /// before and after (it should stay flat).
    func measureLoad(base: String, header: String, server: pid_t) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            print("   wrk not installed (scripts/bootstrap --bench installs it)")
            return
        }
        let seconds = ProcessInfo.processInfo.environment["AGGR_BENCH_WRK_SECONDS"] ?? "30"
        print("== aggr serve under load: wrk -t2 -c200 -d\(seconds)s on loopback (goals: no error, flat RSS)")
        for (label, path, headers) in [
            ("timeline page /", "/", [String]()), ("Atom feed", "/feeds/all.atom", []),
            ("reader ids (1,000)", "/reader/api/0/stream/items/ids?n=1000", ["-H", header]),
        ] {
            let before = Self.residentMegabytes(of: server)
            let text = try ToolOutput.run(
                "/usr/bin/wrk", ["-t2", "-c200", "-d\(seconds)s", "--latency", "--timeout", "10s"] + headers + [base + path]
            ).text
            let after = Self.residentMegabytes(of: server)
            let rate = Self.field(text, after: "Requests/sec:") ?? "?"
            let p99 =
                text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("99%") }
                .map { $0.split(separator: " ").last.map(String.init) ?? "?" } ?? "?"
            let errors = text.split(separator: "\n").filter { $0.contains("Socket errors") || $0.contains("Non-2xx") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            print(
                "   " + label.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + "\(rate) requests/s, p99 \(p99), " + (errors.isEmpty ? "no errors" : errors.joined(separator: "; "))
                    + String(format: ", server RSS %.1f → %.1f MB", before, after))
        }
    }

    /// The word after `label` in wrk's report.
    static func field(_ text: String, after label: String) -> String? {
        guard let range = text.range(of: label) else { return nil }
        return text[range.upperBound...].split(whereSeparator: \.isWhitespace).first.map(String.init)
    }

    /// `pid`'s resident set in megabytes, from /proc.
    static func residentMegabytes(of pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
        else { return .nan }
        return kilobytes / 1_024
    }

    /// The median `time_total` of 11 requests to `url` after one warm-up.
    func median(_ url: String) throws -> Double {
        _ = try curl(["-s", "-o", "/dev/null", url])
        var samples: [Double] = []
        for _ in 0..<11 {
            let text = try curl(["-s", "-o", "/dev/null", "-w", "%{time_total}", url])
            samples.append(Double(text) ?? .nan)
        }
        samples.sort()
        return samples[5]
    }

    func curl(_ arguments: [String]) throws -> String {
        try ToolOutput.run("/usr/bin/curl", arguments).text
    }
}
