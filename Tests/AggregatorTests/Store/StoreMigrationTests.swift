import AggregatorTestSupport
import XCTest

@testable import Aggregator

/// Databases written by an older aggr open and migrate in place; newer ones are refused.
final class StoreMigrationTests: XCTestCase {
    /// Runs `sql` on the database file with the sqlite3 shell.
    func sqlite(_ path: String, _ sql: String) throws {
        let shell = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            throw XCTSkip("the sqlite3 shell is not installed (scripts/bootstrap installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, sql)
    }

    func testVersionOneDatabasesMigrateAndKeepTheirTombstones() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("old.sqlite")
        try sqlite(
            path,
            StoreSchema.migrations[0]
                + "INSERT INTO tombstone (provider, item_id, removed_at) VALUES ('forum', 'gone', 0); PRAGMA user_version = 1;")
        let store = try Store(path: path)
        let section = Section(provider: "forum", key: "hot", title: "Hot")
        let now = ItemFactory.epoch
        XCTAssertEqual(try store.ingest([ItemFactory.item(id: "gone")], section: section, now: now), IngestResult(tombstoned: 1))
        XCTAssertEqual(
            try store.prune(RetentionPolicy(), now: now.addingTimeInterval(89 * 86_400)).forgottenTombstones, 0,
            "met again just now, so kept")
        XCTAssertEqual(try store.prune(RetentionPolicy(), now: now.addingTimeInterval(91 * 86_400)).forgottenTombstones, 1)
    }

    func testNewerDatabasesAreRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("future.sqlite")
        try sqlite(path, "PRAGMA user_version = 99;")
        XCTAssertThrowsError(try Store(path: path)) { error in
            XCTAssertEqual(
                "\(error)",
                "database \(path): schema version 99 is newer than this aggr understands (\(StoreSchema.currentVersion)); upgrade aggr")
        }
    }
}
