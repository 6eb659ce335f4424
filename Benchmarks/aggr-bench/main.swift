import Aggregator
import AggregatorTestSupport
import Foundation

/// `make bench`: the user's commands as whole processes beside the sqlite3 shell and the peer
/// readers (import, timeline, search, refresh), each in its own process so its wall time and
/// peak RSS are its own.
let arguments = CommandLine.arguments
let phase = arguments.count > 1 ? arguments[1] : "all"

switch phase {
case "ingest":
    try BenchPhases.ingest(database: arguments[2], count: Int(arguments[3])!, report: true)
case "refresh":
    let directory = NSTemporaryDirectory() + "aggr-bench-refresh-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let bench = RefreshBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr"))
    try bench.measureRefresh(directory: directory)
    try await bench.measureThroughput()
    try? FileManager.default.removeItem(atPath: directory)
case "serve":
    // Keeps the 200 slow hosts up for profiling `aggr refresh` by hand: serve CONFIG SECONDS.
    let servers = try RefreshBench.startServers()
    try RefreshBench.writeConfig(for: servers, to: arguments[2])
    sleep(UInt32(arguments.count > 3 ? Int(arguments[3]) ?? 60 : 60))
    servers.forEach { $0.stop() }
case "feeds-serve":
    // Keeps the feed hosts up for profiling `aggr refresh` by hand: feeds-serve COUNT CONFIG SECONDS.
    let count = Int(arguments[2]) ?? 1_000
    let hosts = min(count, 100)
    let servers = try FeedRefreshBench.startServers(hosts: hosts)
    try FeedRefreshBench.writeConfig(urls: (0..<count).map { "\(servers[$0 % hosts].baseURL)/feed-\($0).xml" }, to: arguments[3])
    sleep(UInt32(arguments.count > 4 ? Int(arguments[4]) ?? 60 : 60))
    servers.forEach { $0.stop() }
case "markup":
    let directory = NSTemporaryDirectory() + "aggr-bench-markup-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try MarkupBench(run: BenchRun(aggr: ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "feeds":
    let directory = NSTemporaryDirectory() + "aggr-bench-feeds-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try FeedRefreshBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "user":
    let directory = NSTemporaryDirectory() + "aggr-bench-user-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try UserCommandBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "watch":
    let directory = NSTemporaryDirectory() + "aggr-bench-watch-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try WatchBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "web":
    let directory = NSTemporaryDirectory() + "aggr-bench-web-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try WebBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "tui":
    let directory = NSTemporaryDirectory() + "aggr-bench-tui-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try TerminalBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "article":
    let directory = NSTemporaryDirectory() + "aggr-bench-article-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try ArticleBench().measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "postgres":
    let directory = NSTemporaryDirectory() + "aggr-bench-postgres-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try PostgresBench(run: BenchRun(aggr: arguments.count > 2 ? arguments[2] : ".build/release/aggr")).measure(directory: directory)
    try? FileManager.default.removeItem(atPath: directory)
case "fts":
    try BenchPhases.fullTextQueries(database: arguments[2])
case "all", "--aggr":
    let aggr = arguments.firstIndex(of: "--aggr").map { arguments[$0 + 1] } ?? ".build/release/aggr"
    try await BenchRun(aggr: aggr).run()
default:
    FileHandle.standardError.write(
        Data(
            "usage: aggr-bench [--aggr PATH] | ingest DB COUNT | fts DB | feeds-serve COUNT CONFIG SECONDS | refresh|feeds|user|markup|watch|web|tui|postgres [AGGR]\n"
                .utf8))
    exit(64)
}
