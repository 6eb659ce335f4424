import Aggregator
import AggregatorTestSupport
import Foundation
import PostgresStorage

/// The PostgreSQL store beside the SQLite file on the same data, as the user runs it.
///
/// Import, timeline and search, and a refresh of many feeds by one worker and by three at
/// once (the scaling ratio is the figure). The server is a throw-away cluster on loopback.
struct PostgresBench {
    let run: BenchRun

    func measure(directory: String) throws {
        let cluster: PostgresCluster
        do {
            cluster = try PostgresCluster.shared.get()
        } catch {
            print("== PostgreSQL: skipped (\(error))")
            return
        }
        setenv("PGPASSWORD", cluster.password, 1)
        let items = Int(ProcessInfo.processInfo.environment["AGGR_BENCH_PG_ITEMS"] ?? "") ?? 1_000_000
        try measureStore(count: items, cluster: cluster, directory: directory)
        let feeds = (ProcessInfo.processInfo.environment["AGGR_BENCH_PG_FEEDS"] ?? "1000,10000").split(separator: ",").compactMap {
            Int($0)
        }
        for count in feeds { try measureWorkers(feeds: count, cluster: cluster, directory: directory) }
    }

    func measureStore(count: Int, cluster: PostgresCluster, directory: String) throws {
        let bench = UserCommandBench(run: run)
        let ndjson = "\(directory)/pg-items.ndjson"
        try bench.writeInputs(count: count, ndjson: ndjson, tsv: "/dev/null")
        defer { try? FileManager.default.removeItem(atPath: ndjson) }
        let sqlite = "\(directory)/pg-beside.sqlite"
        let postgres = try cluster.createDatabase()
        _ = try run.spawn(run.aggr, ["timeline", "--db", postgres])  // the schema, made once
        let sqliteImport = try run.spawn(run.aggr, ["import", ndjson, "--db", sqlite])
        let postgresImport = try run.spawn(run.aggr, ["import", ndjson, "--db", postgres])
        print("== PostgreSQL beside SQLite, \(count) items (aggr import, then each command as a whole process)")
        print(
            String(
                format: "   import: PostgreSQL %.2f s (%.0f items/s, peak RSS %.1f MB) | SQLite %.2f s (%.0f items/s) → %.2f×",
                postgresImport.seconds, Double(count) / postgresImport.seconds, postgresImport.peakMegabytes, sqliteImport.seconds,
                Double(count) / sqliteImport.seconds, postgresImport.seconds / sqliteImport.seconds))
        let commands: [(String, [String])] = [
            ("timeline --limit 50", ["timeline", "--limit", "50"]),
            ("timeline --where", ["timeline", "--limit", "50", "--where", #"title ~ "swift" and replies > 5"#]),
            ("search concurrency", ["search", "concurrency", "--limit", "20"]),
            ("search 数据库", ["search", "数据库", "--limit", "20"]),
        ]
        for (label, arguments) in commands {
            let onPostgres = try bench.median(5) { try run.spawn(run.aggr, arguments + ["--db", postgres]).seconds }
            let onSQLite = try bench.median(5) { try run.spawn(run.aggr, arguments + ["--db", sqlite]).seconds }
            print("   \(label): PostgreSQL \(bench.ms(onPostgres)) | SQLite \(bench.ms(onSQLite)) → \(bench.ratio(onPostgres, onSQLite))")
        }
        BenchRun.removeDatabase(sqlite)
    }

    /// `aggr refresh` of `feeds` loopback feeds into a new database by one process, then by
    /// three at once sharing it (each claiming what it fetches).
    func measureWorkers(feeds: Int, cluster: PostgresCluster, directory: String) throws {
        let hosts = min(feeds, 100)
        let servers = try FeedRefreshBench.startServers(hosts: hosts)
        defer { servers.forEach { $0.stop() } }
        let config = "\(directory)/pg-feeds.json"
        try FeedRefreshBench.writeConfig(urls: (0..<feeds).map { "\(servers[$0 % hosts].baseURL)/feed-\($0).xml" }, to: config)
        var times: [Int: Double] = [:]
        for workers in [1, 3] {
            let database = try cluster.createDatabase()
            _ = try run.spawn(run.aggr, ["timeline", "--db", database])
            let started = Date()
            try Self.together(workers) { _ in [run.aggr, "refresh", "--config", config, "--db", database] }
            times[workers] = Date().timeIntervalSince(started)
            let counts = try PostgresStore(url: database, environment: cluster.environment).itemCounts()
            guard counts.count == feeds else { throw BenchFailure("\(workers) workers stored \(counts.count) of \(feeds) feeds") }
        }
        let one = times[1] ?? 0
        let three = times[3] ?? 0
        print(
            String(
                format:
                    "   refresh of %d feeds on PostgreSQL: 1 worker %.2f s | 3 workers at once %.2f s → scaling %.2f× (3 would be ideal on 3 machines; this one has 2 cores)",
                feeds, one, three, one / three))
    }

    /// Runs `count` processes at once and waits for all; fails when one fails.
    static func together(_ count: Int, _ command: (Int) -> [String]) throws {
        var pids: [pid_t] = []
        for index in 0..<count {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let arguments = command(index)
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
                throw BenchFailure("cannot run \(arguments[0])")
            }
            pids.append(pid)
        }
        var failed = false
        for pid in pids {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            // 2: some feed failed while others came back; the stored count decides.
            failed = failed || !(status == 0 || status == 2 << 8)
        }
        if failed { throw BenchFailure("a refresh worker failed") }
    }
}
