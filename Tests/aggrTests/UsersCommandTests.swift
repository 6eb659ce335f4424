import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr users` on PostgreSQL: each user reads and saves on their own; passwords are kept
/// as slow salted hashes; a SQLite file says it has one user.
final class UsersCommandTests: EndToEndTestCase {
    func testTwoUsersKeepTheirOwnStateAndPasswordsAreHashed() throws {
        let cluster = try PostgresCluster.shared.get()
        let database = try cluster.createDatabase()
        runner.environment.merge(cluster.environment) { $1 }
        runner.environment["AGGR_DB"] = database
        directory.write("providers.json", #"{"providers": []}"#)
        let lines = (1...3).map {
            #"{"provider":"forum","section":"hot","id":"\#($0)","kind":"topic","title":"Topic \#($0)","url":"https://forum.example/\#($0)","published":"2026-11-20T00:00:00Z"}"#
        }
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n") + "\n").status, 0)
        XCTAssertEqual(try aggr("users").stdout, "aggr\n", "the first user is made on first use")
        let added = try aggr("users", "add", "alice", input: "correct horse battery\n")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(added.stderr, "added user alice\n")
        XCTAssertEqual(try aggr("users", "add", "bob", input: "another long secret\n").status, 0)
        XCTAssertEqual(
            try aggr("users", "add", "alice", input: "whatever123\n").stderr, "aggr: database \(database): user alice exists already\n")
        XCTAssertEqual(try aggr("users", "add", "eve", input: "short\n").status, 1)
        XCTAssertEqual(try aggr("users", "list").stdout, "aggr\nalice\nbob\n")

        XCTAssertEqual(try aggr("read", "forum:1", "--user", "alice").status, 0)
        XCTAssertEqual(try aggr("save", "forum:2", "--user", "bob").status, 0)
        func unread(_ user: String) throws -> [String] {
            try aggr("timeline", "--unread", "--format", "tsv", "--user", user).stdout.split(separator: "\n").dropFirst().map {
                String($0.split(separator: "\t")[3])
            }.sorted()
        }
        XCTAssertEqual(try unread("alice"), ["2", "3"])
        XCTAssertEqual(try unread("bob"), ["1", "2", "3"], "alice's reading is hers")
        XCTAssertEqual(try aggr("timeline", "--saved", "--format", "tsv", "--user", "alice").stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(try aggr("timeline", "--saved", "--format", "tsv", "--user", "bob").stdout.split(separator: "\n").count, 2)
        let nobody = try aggr("timeline", "--user", "carol")
        XCTAssertEqual(nobody.status, 1)
        XCTAssertTrue(nobody.stderr.contains("no user carol (add one with `aggr users add carol`)"), nobody.stderr)

        let dump = try cluster.dump(database)
        XCTAssertTrue(dump.contains("pbkdf2-sha256$600000$"), "kept as a slow salted hash")
        XCTAssertFalse(dump.contains("correct horse battery") || dump.contains("another long secret"), "never as given")
        XCTAssertEqual(try aggr("users", "passwd", "alice", input: "a new password\n").stderr, "password of alice changed\n")
        XCTAssertEqual(try aggr("users", "remove", "bob").stderr, "removed user bob\n")
        XCTAssertEqual(try aggr("users").stdout, "aggr\nalice\n")
        XCTAssertEqual(try unread("alice"), ["2", "3"], "another user's removal leaves the rest")
    }

    /// Views a user saves are theirs: another user does not see them, and one named as a
    /// config view replaces it for that user only.
    func testEachUserHasViewsOfTheirOwn() throws {
        let cluster = try PostgresCluster.shared.get()
        runner.environment.merge(cluster.environment) { $1 }
        runner.environment["AGGR_DB"] = try cluster.createDatabase()
        directory.write("providers.json", #"{"providers": [], "views": {"shared": "title ~ '1'"}}"#)
        let lines = (1...3).map {
            #"{"provider":"forum","section":"hot","id":"\#($0)","kind":"topic","title":"Topic \#($0)","url":"https://forum.example/\#($0)","published":"2026-11-20T00:00:00Z"}"#
        }
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n") + "\n").status, 0)
        XCTAssertEqual(try aggr("users", "add", "alice", input: "correct horse battery\n").status, 0)
        XCTAssertEqual(try aggr("users", "add", "bob", input: "another long secret\n").status, 0)
        func titles(_ view: String, _ user: String) throws -> [String]? {
            let result = try aggr("timeline", view, "--format", "tsv", "--user", user)
            guard result.status == 0 else { return nil }
            return result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t").last ?? "") }.sorted()
        }
        let saved = try aggr("filter", "save", "mine", "title ~ '2'", "--user", "alice")
        XCTAssertEqual(saved.stderr, "saved view mine for alice: aggr timeline mine\n")
        XCTAssertEqual(try titles("mine", "alice")?.count, 1)
        XCTAssertNil(try titles("mine", "bob"), "alice's view is hers")
        XCTAssertEqual(try aggr("filter", "save", "shared", "title ~ '3'", "--user", "bob").status, 0)
        XCTAssertNotEqual(try titles("shared", "bob"), try titles("shared", "alice"), "bob's own replaces the config's for bob")
        XCTAssertEqual(try titles("shared", "alice")?.count, 1)
        let config = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        XCTAssertFalse(config.contains("mine") || config.contains("'3'"), "providers.json is everyone's: \(config)")
        XCTAssertEqual(try aggr("filter", "save", "mine", "--remove", "--user", "alice").status, 0)
        XCTAssertNil(try titles("mine", "alice"))
    }

    func testASQLiteFileHasOneUser() throws {
        let result = try aggr("users", "add", "alice", input: "long enough password\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains("users need a PostgreSQL database (--db postgres://…); a SQLite file has one user"), result.stderr)
    }
}
