import Foundation

/// Orchestrates the phases and prints the figures the closing notes quote.
struct BenchRun {
    var aggr: String

    /// Wall time and peak RSS of one child process.
    struct Measurement {
        var seconds: Double
        var peakMegabytes: Double
        var output: String
    }

    func run() async throws {
        let directory = NSTemporaryDirectory() + "aggr-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let me = CommandLine.arguments[0]

        let small = try spawn(me, ["ingest", "\(directory)/100k.sqlite", "100000"])
        print("== ingest 100k items (goal ≥ 50k items/s)")
        print(small.output.trimmingCharacters(in: .newlines))
        print(String(format: "   whole process %.2f s, peak RSS %.1f MB", small.seconds, small.peakMegabytes))

        let large = try spawn(me, ["ingest", "\(directory)/1m.sqlite", "1000000"])
        print("== build a 1M-item database")
        print(large.output.trimmingCharacters(in: .newlines))
        print(String(format: "   whole process %.2f s, peak RSS %.1f MB", large.seconds, large.peakMegabytes))

        print("== aggr timeline --limit 50 on 1M items, whole process (goal ≤ 60 ms)")
        var times: [Double] = []
        var peak = 0.0
        _ = try spawn(aggr, ["timeline", "--limit", "50", "--db", "\(directory)/1m.sqlite"])  // warm the page cache
        for _ in 0..<21 {
            let result = try spawn(aggr, ["timeline", "--limit", "50", "--db", "\(directory)/1m.sqlite"])
            times.append(result.seconds * 1000)
            peak = max(peak, result.peakMegabytes)
            guard result.output.split(separator: "\n").count == 50 else {
                throw BenchFailure("timeline printed \(result.output.count) bytes")
            }
        }
        times.sort()
        print(
            String(format: "   median %.1f ms, p90 %.1f ms, best %.1f ms, peak RSS %.1f MB (21 runs)", times[10], times[18], times[0], peak)
        )

        var unread: [Double] = []
        for _ in 0..<11 {
            let result = try spawn(aggr, ["timeline", "--limit", "50", "--provider", "p3", "--unread", "--db", "\(directory)/1m.sqlite"])
            unread.append(result.seconds * 1000)
        }
        unread.sort()
        print(String(format: "   with --provider p3 --unread: median %.1f ms", unread[5]))

        print("== aggr timeline --where 'title ~ \"swift\" and replies > 5' on 1M items, whole process (goal ≤ 150 ms)")
        var filtered: [Double] = []
        var filteredPeak = 0.0
        for _ in 0..<11 {
            let result = try spawn(
                aggr, ["timeline", "--limit", "50", "--where", "title ~ \"swift\" and replies > 5", "--db", "\(directory)/1m.sqlite"])
            filtered.append(result.seconds * 1000)
            filteredPeak = max(filteredPeak, result.peakMegabytes)
        }
        filtered.sort()
        print(String(format: "   median %.1f ms, worst %.1f ms, peak RSS %.1f MB (11 runs)", filtered[5], filtered[10], filteredPeak))

        print("== aggr search over 1M items, whole process (goal ≤ 50 ms)")
        for words in ["concurrency", "数据库", "timeline parser"] {
            var runs: [Double] = []
            var peakSearch = 0.0
            for _ in 0..<11 {
                let result = try spawn(aggr, ["search", words, "--limit", "20", "--db", "\(directory)/1m.sqlite"])
                runs.append(result.seconds * 1000)
                peakSearch = max(peakSearch, result.peakMegabytes)
            }
            runs.sort()
            print(String(format: "   %@: median %.1f ms, worst %.1f ms, peak RSS %.1f MB", "\"\(words)\"", runs[5], runs[10], peakSearch))
        }

        print("== full-text query over 1M items, in process (goal ≤ 50 ms)")
        let fts = try spawn(me, ["fts", "\(directory)/1m.sqlite"])
        print(fts.output.trimmingCharacters(in: .newlines))
        print(String(format: "   fts process peak RSS %.1f MB", fts.peakMegabytes))
        try MarkupBench(run: self).measure(directory: directory)
        let refresh = RefreshBench(run: self)
        try refresh.measureRefresh(directory: directory)
        try await refresh.measureThroughput()
        try FeedRefreshBench(run: self).measure(directory: directory)
        let size = (try? FileManager.default.attributesOfItem(atPath: "\(directory)/1m.sqlite")[.size] as? Int) ?? 0
        print(String(format: "== 1M-item database file: %.0f MB", Double(size) / 1_048_576))
    }

    /// Runs `path arguments…`, capturing stdout, with wall time and peak RSS from wait4.
    func spawn(_ path: String, _ arguments: [String], stderrTo errorPath: String = "/dev/null") throws -> Measurement {
        let output = NSTemporaryDirectory() + "aggr-bench-out-\(getpid())"
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        let status = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard status == 0 else { throw BenchFailure("cannot run \(path): \(String(cString: strerror(status)))") }
        var exitStatus: Int32 = 0
        var usage = rusage()
        wait4(pid, &exitStatus, 0, &usage)
        let seconds = Date().timeIntervalSince(start)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: output)
        guard exitStatus == 0 else { throw BenchFailure("\(path) \(arguments.joined(separator: " ")) exited with \(exitStatus)") }
        return Measurement(seconds: seconds, peakMegabytes: Double(usage.ru_maxrss) / 1024, output: text)
    }
}

/// A benchmark that could not run.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
