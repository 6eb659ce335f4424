import Aggregator
import AggregatorTestSupport
import PostgresStorage
import XCTest

/// Runs the real `aggr` binary with its own HOME, config and database in a temp directory.
///
/// With `AGGR_TEST_STORE=postgres` the database is a new one on the test PostgreSQL cluster
/// (`AGGR_DB=postgres://…`, the password in `PGPASSWORD`): `make test` runs the end-to-end
/// suites that are about stored data that way too.
class EndToEndTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var runner: CLIRunner!

    /// The moment every run takes as now, so relative times in golden files are stable.
    static let now = "2026-11-21T00:00:00Z"

    override func setUpWithError() throws {
        directory = TemporaryDirectory(prefix: "aggr-e2e")
        let binary = CLIRunner.locateBinary()
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw XCTSkip("aggr binary not built at \(binary); run `swift build` first")
        }
        runner = CLIRunner(
            binary: binary,
            environment: [
                "HOME": directory.path, "XDG_CONFIG_HOME": directory.file("config"), "XDG_DATA_HOME": directory.file("data"),
                "AGGR_DB": directory.file("aggr.sqlite"), "AGGR_NOW": Self.now, "COLUMNS": "100",
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ])
        if ProcessInfo.processInfo.environment["AGGR_TEST_STORE"] == "postgres" {
            let cluster = try PostgresCluster.shared.get()
            runner.environment["AGGR_DB"] = try cluster.createDatabase()
            runner.environment.merge(cluster.environment) { $1 }
        }
    }

    override func tearDown() {
        directory = nil
    }

    /// Runs aggr in the temp directory (so `./providers.json` is the test's own).
    @discardableResult
    func aggr(_ arguments: String..., input: String? = nil) throws -> CLIRunner.Result {
        try runner.run(arguments, in: directory.path, input: input)
    }

    /// Runs aggr in the temp directory with `environment` added (a token, a session cookie).
    @discardableResult
    func aggr(_ arguments: String..., input: String? = nil, environment: [String: String]) throws -> CLIRunner.Result {
        try runner.run(arguments, in: directory.path, input: input, extraEnvironment: environment)
    }

    /// The test's database opened in this process, as `aggr` opens it.
    func openStore() throws -> any TimelineStorage {
        if let url = runner.environment["AGGR_DB"], url.hasPrefix("postgres://") {
            return try PostgresStore(url: url, environment: try PostgresCluster.shared.get().environment)
        }
        return try Store(path: directory.file("aggr.sqlite"))
    }

    /// Whether this run's database is on the test PostgreSQL cluster.
    var onPostgres: Bool { runner.environment["AGGR_DB"]?.hasPrefix("postgres://") == true }

    /// Everything the database holds, as bytes.
    ///
    /// The SQLite file (and its write-ahead log), or a `pg_dump` of the PostgreSQL database:
    /// what must never be stored is looked for here.
    func storedBytes() throws -> Data {
        if let url = runner.environment["AGGR_DB"], url.hasPrefix("postgres://") {
            return Data(try PostgresCluster.shared.get().dump(url).utf8)
        }
        let file = directory.file("aggr.sqlite")
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        if let log = try? Data(contentsOf: URL(fileURLWithPath: file + "-wal")) { data.append(log) }
        return data
    }

    /// The committed fixture `name` from Tests/aggrTests/Fixtures.
    func fixture(_ name: String, file: StaticString = #filePath) throws -> String {
        let path = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Every file `aggr refresh --record` wrote below `directory` (one folder per host).
    func recordedFiles(in directory: String) -> [String] {
        let paths = FileManager.default.subpaths(atPath: directory) ?? []
        return paths.map { "\(directory)/\($0)" }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Compares `actual` with Golden/`name`; `AGGR_UPDATE_GOLDEN=1` rewrites the file instead.
    func assertGolden(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Golden/\(name)").path
        if ProcessInfo.processInfo.environment["AGGR_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(actual, expected, "output differs from Golden/\(name)", file: file, line: line)
    }
}
