import Aggregator
import AggregatorTestSupport
import PostgresStorage
import XCTest

/// A test case with a fresh store per test: a SQLite file, or, when `AGGR_TEST_STORE` is
/// `postgres`, a new database on the test process's PostgreSQL cluster.
///
/// One suite, two stores: `make test` runs these classes a second time with
/// `AGGR_TEST_STORE=postgres` (see the Makefile's `STORE_SUITES`), so every store behaviour
/// is checked against both backends; without a PostgreSQL server that run fails and says why.
class StoreTestCase: XCTestCase {
    /// Whether this process tests the PostgreSQL store.
    static let onPostgres = ProcessInfo.processInfo.environment["AGGR_TEST_STORE"] == "postgres"

    var directory: TemporaryDirectory!
    var store: (any TimelineStorage)!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        store = try makeStore()
    }

    /// The PostgreSQL database of this test.
    private var databaseURL: String?

    /// A new, empty store of this run's backend.
    func makeStore() throws -> any TimelineStorage {
        guard Self.onPostgres else { return try Store(path: directory.file("aggr.sqlite")) }
        let cluster = try PostgresCluster.shared.get()
        let url = try cluster.createDatabase()
        databaseURL = url
        return try PostgresStore(url: url, environment: cluster.environment)
    }

    /// The same database opened again, as another process would.
    func reopen() throws -> any TimelineStorage {
        guard Self.onPostgres, let databaseURL else { return try Store(path: directory.file("aggr.sqlite")) }
        return try PostgresStore(url: databaseURL, environment: try PostgresCluster.shared.get().environment)
    }

    override func tearDown() {
        store = nil
        directory = nil
    }

    func section(_ provider: String = "forum", _ key: String = "hot") -> Section {
        Section(provider: provider, key: key, title: "\(provider) › \(key)")
    }

    @discardableResult
    func ingest(_ items: [Item], now: Date = ItemFactory.epoch) throws -> IngestResult {
        let first = try XCTUnwrap(items.first)
        return try store.ingest(items, section: section(first.provider, first.section), now: now)
    }

    func timelineIDs(_ configure: (inout TimelineQuery) -> Void = { _ in }) throws -> [String] {
        var query = TimelineQuery()
        configure(&query)
        return try store.timeline(query).items.map { "\($0.item.provider):\($0.item.id)" }
    }
}
