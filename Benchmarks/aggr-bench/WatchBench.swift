import Aggregator
import AggregatorTestSupport
import Foundation

/// `aggr watch` over time: resident memory across many passes against loopback feeds that
/// change every pass (second-long intervals), and CPU used while it waits between passes.
struct WatchBench {
    var run: BenchRun
    /// Passes to run (`AGGR_BENCH_WATCH_PASSES`, default 200).
    var passes = Int(ProcessInfo.processInfo.environment["AGGR_BENCH_WATCH_PASSES"] ?? "") ?? 200

    /// A feed of 20 items whose newest changes on every request.
    final class Feed: @unchecked Sendable {
        private let lock = NSLock()
        private var served = 0

        func body(host: Int) -> String {
            let round = lock.withLock {
                served += 1
                return served
            }
            var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Host \(host)</title>"
            for index in 0..<20 {
                let number = round + index
                text += "<item><title>Post \(number) on \(host)</title><link>https://h\(host).example/\(number)</link>"
                text += "<guid>\(number)</guid><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate><description>Body</description></item>"
            }
            return text + "</channel></rss>"
        }
    }

    func measure(directory: String) throws {
        print(
            "== aggr watch: RSS over \(passes) passes of 10 changing feeds at 1 s intervals (goal: grows ≤ 5 MB); CPU while idle (goal: ~0)"
        )
        let server = try TestHTTPServer()
        defer { server.stop() }
        let feed = Feed()
        server.route("/feed") { request in
            .text(feed.body(host: Int(request.path.dropFirst("/feed-".count)) ?? 0), contentType: "application/rss+xml")
        }
        let entries = (1...10).map {
            "{\"id\": \"f\($0)\", \"type\": \"feed\", \"interval\": \"1s\", \"options\": {\"url\": \"\(server.baseURL)/feed-\($0)\"}}"
        }
        let config = "\(directory)/watch-providers.json"
        try
            "{\"providers\": [\(entries.joined(separator: ","))], \"notify\": [{\"name\": \"n\", \"when\": \"title ~ 'Post'\", \"command\": [\"/bin/true\"]}]}"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let log = "\(directory)/watch.log"
        let watch = try start(["watch", "--config", config, "--db", "\(directory)/watch.sqlite"], log: log)
        defer { stop(watch) }
        var baseline: Double?
        var started = Date()
        while true {
            let done = passCount(log)
            if baseline == nil, done >= 10 {
                baseline = residentMegabytes(watch)
                started = Date()
            }
            if done >= passes { break }
            guard kill(watch, 0) == 0 else { throw BenchFailure("aggr watch exited early: \(tail(log))") }
            usleep(200_000)
        }
        let final = residentMegabytes(watch)
        let growth = final - (baseline ?? final)
        print(
            String(
                format: "   RSS after pass 10: %.1f MB, after pass %d: %.1f MB → grew %.1f MB (%.0f s for the last %d passes)",
                baseline ?? 0,
                passes, final, growth, Date().timeIntervalSince(started), passes - 10))
        stop(watch)

        // Idle: a 1 h interval, so after the first pass nothing is due.
        let idleConfig = "\(directory)/watch-idle.json"
        try "{\"providers\": [\(entries.map { $0.replacingOccurrences(of: "\"1s\"", with: "\"1h\"") }.joined(separator: ","))]}"
            .write(toFile: idleConfig, atomically: true, encoding: .utf8)
        let idleLog = "\(directory)/watch-idle.log"
        let idle = try start(["watch", "--config", idleConfig, "--db", "\(directory)/watch-idle.sqlite"], log: idleLog)
        defer { stop(idle) }
        while !((try? String(contentsOfFile: idleLog, encoding: .utf8)) ?? "").contains("next:") { usleep(100_000) }
        let before = cpuTicks(idle)
        sleep(20)
        let used = cpuTicks(idle) - before
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        print(String(format: "   CPU while idle: %.2f s over 20 s (%d ticks)", Double(used) / hertz, used))
    }

    func start(_ arguments: [String], log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([run.aggr] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, run.aggr, &actions, nil, argv, environ)
        guard status == 0 else { throw BenchFailure("cannot run \(run.aggr): \(String(cString: strerror(status)))") }
        return pid
    }

    func stop(_ pid: pid_t) {
        guard kill(pid, 0) == 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    func passCount(_ log: String) -> Int {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: " refreshed in ").count - 1
    }

    func tail(_ log: String) -> String {
        String(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(500))
    }

    /// VmRSS of `pid` in MB.
    func residentMegabytes(_ pid: pid_t) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    /// utime + stime of `pid` in clock ticks.
    func cpuTicks(_ pid: pid_t) -> Int {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3; utime and stime are fields 14 and 15.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
