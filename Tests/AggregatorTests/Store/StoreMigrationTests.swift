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

    /// A read command's store is read-only when the file is current, and upgrades (or
    /// creates) the file like any open when it is not.
    func testAReadingStoreUpgradesOldFilesAndOnlyReadsCurrentOnes() throws {
        let directory = TemporaryDirectory()
        let old = directory.file("old.sqlite")
        try sqlite(old, StoreSchema.migrations[0] + "PRAGMA user_version = 1;")
        let upgraded = try Store.forReading(path: old)
        XCTAssertFalse(upgraded.isReadOnly)
        XCTAssertEqual(try upgraded.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }, StoreSchema.currentVersion)

        let current = try Store.forReading(path: old)
        XCTAssertTrue(current.isReadOnly)
        XCTAssertEqual(try current.timeline(TimelineQuery()).items.count, 0)
        XCTAssertThrowsError(try current.ingest([ItemFactory.item(id: "x")], section: Section(provider: "forum", key: "hot", title: "Hot")))

        let missing = directory.file("new/aggr.sqlite")
        let created = try Store.forReading(path: missing)
        XCTAssertFalse(created.isReadOnly)
        XCTAssertTrue(FileManager.default.fileExists(atPath: missing))
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

extension StoreMigrationTests {
    /// A version-2 database, as aggr wrote it before schema 3, holding the rows of `sql`.
    func versionTwoDatabase(_ name: String, in directory: TemporaryDirectory, rows sql: String) throws -> String {
        let path = directory.file(name)
        try sqlite(path, StoreSchema.migrations[0] + StoreSchema.migrations[1] + sql + "\nPRAGMA user_version = 2;")
        return path
    }

    func testVersionTwoDatabasesLoseTheCredentialsTheyStored() throws {
        let directory = TemporaryDirectory()
        let feed = "http://127.0.0.1:9/feed.xml?token=S3CRET"
        let path = try versionTwoDatabase(
            "leaky.sqlite", in: directory,
            rows: """
                INSERT INTO section (provider, key, title) VALUES ('blog', 'url/\(feed)', 'Blog');
                INSERT INTO item (provider, section, item_id, kind, title, url, canonical_url, summary, published, tags, extra,
                    first_seen) VALUES ('blog', 'url/\(feed)', 'p1', 'post', 'Post', '\(feed)', '\(feed)', '', 0, '[]', '{}', 0);
                INSERT INTO provider_state (provider, last_error) VALUES ('blog', 'url/\(feed): HTTP 500 from \(feed)');
                """)
        let store = try Store(path: path)
        let stored = try store.timeline(TimelineQuery()).items
        XCTAssertEqual(stored.map(\.item.section), ["url/http://127.0.0.1:9/feed.xml?token=REDACTED"])
        XCTAssertEqual(stored.map(\.item.url), ["http://127.0.0.1:9/feed.xml?token=REDACTED"])
        XCTAssertEqual(
            try store.providerStates()["blog"]?.lastError,
            "url/http://127.0.0.1:9/feed.xml?token=REDACTED: HTTP 500 from http://127.0.0.1:9/feed.xml?token=REDACTED")
        let bytes = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        XCTAssertFalse(bytes.contains("S3CRET"), "no page of the file holds the secret after the migration")
    }
}

extension StoreMigrationTests {
    func testVersionTwoDatabasesLoseTheControlCharactersTheyStored() throws {
        let directory = TemporaryDirectory()
        let hostile = "'Click' || char(27) || '[2J' || char(8238) || 'me ' || char(155) || '31mnow'"
        let path = try versionTwoDatabase(
            "hostile.sqlite", in: directory,
            rows: """
                INSERT INTO item (provider, section, item_id, kind, title, url, canonical_url, summary, published, tags, extra,
                    first_seen) VALUES ('forum', 'hot', 't1', 'topic', \(hostile), 'https://f.example/1', 'https://f.example/1',
                    'plain', 0, '["a' || char(8235) || 'b"]', '{}', 0);
                INSERT INTO item_fts (rowid, title, summary, author, tags) VALUES (1, \(hostile), 'plain', NULL, 'a' || char(8235) || 'b');
                """)
        let store = try Store(path: path)
        let stored = try XCTUnwrap(try store.timeline(TimelineQuery()).items.first)
        XCTAssertEqual(stored.item.title, "Clickme now")
        XCTAssertEqual(stored.item.tags, ["ab"])
        XCTAssertEqual(try store.search("clickme").map(\.item.id), ["t1"], "the index holds the cleaned title")
        XCTAssertEqual(try store.search("ab").map(\.item.id), ["t1"])
    }
}
