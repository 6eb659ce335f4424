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

        try UserCommandBench(run: self).measure(directory: directory)
        try MarkupBench(run: self).measure(directory: directory)
        let refresh = RefreshBench(run: self)
        try refresh.measureRefresh(directory: directory)
        try await refresh.measureThroughput()
        try FeedRefreshBench(run: self).measure(directory: directory)
        try WatchBench(run: self).measure(directory: directory)
        try WebBench(run: self).measure(directory: directory)
        try ArticleBench().measure(directory: directory)
        try TerminalBench(run: self).measure(directory: directory)
        try PostgresBench(run: self).measure(directory: directory)
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

extension BenchRun {
    /// The files of a SQLite database in WAL mode: the database, its log and its index.
    static let databaseSuffixes = ["", "-wal", "-shm"]

    /// Deletes the database at `path` with its log and index, whichever exist.
    static func removeDatabase(_ path: String) {
        for suffix in databaseSuffixes { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Moves the database at `path` with its log and index, whichever exist, to `target`.
    static func moveDatabase(_ path: String, to target: String) {
        for suffix in databaseSuffixes { try? FileManager.default.moveItem(atPath: path + suffix, toPath: target + suffix) }
    }
}

/// A benchmark that could not run.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
