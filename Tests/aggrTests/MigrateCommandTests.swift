import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr migrate --to`: a SQLite database copied to PostgreSQL and back keeps every item
/// (with its number), its state and its search results; a target holding items is refused.
final class MigrateCommandTests: EndToEndTestCase {
    func line(_ index: Int) -> String {
        let words = ["swift", "数据库", "Zürich", "kernel"]
        return
            #"{"provider":"p\#(index % 3)","section":"s\#(index % 5)","id":"\#(index)","kind":"post","title":"\#(words[index % 4]) topic \#(index)","url":"https://p.example/\#(index)","summary":"body \#(index) of \#(words[(index / 4) % 4])","published":"2026-11-\#(10 + index % 10)T00:00:00Z"}"#
    }

    /// Everything a user sees of the database `db`: every item with its number and state,
    /// the sections, and some searches.
    func view(_ db: String, environment: [String: String] = [:]) throws -> [String] {
        var seen: [String] = []
        let timeline = try aggr("timeline", "--db", db, "--all", "--format", "ndjson", "--limit", "1000", environment: environment)
        XCTAssertEqual(timeline.status, 0, timeline.stderr)
        seen += timeline.stdout.split(separator: "\n").map(String.init).sorted()
        for words in ["swift", "数据库", "zurich", "kernel topic", "数"] {
            let search = try aggr("search", words, "--db", db, "--format", "tsv", "--limit", "1000", environment: environment)
            seen.append(
                "\(words): "
                    + search.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "\t")[0]) }.sorted().joined(
                        separator: ","))
        }
        seen.append(try aggr("providers", "--db", db, environment: environment).stdout)
        return seen
    }

    func testACopyToPostgreSQLAndBackKeepsItemsStateAndSearch() throws {
        directory.write("providers.json", #"{"providers": []}"#)
        let sqlite = directory.file("source.sqlite")
        directory.write("items.ndjson", (1...300).map(line).joined(separator: "\n") + "\n")
        XCTAssertEqual(try aggr("import", "items.ndjson", "--db", sqlite).status, 0)
        XCTAssertEqual(try aggr("read", "p1:1", "p2:2", "--db", sqlite).status, 0)
        XCTAssertEqual(try aggr("save", "p0:3", "--db", sqlite).status, 0)
        XCTAssertEqual(try aggr("prune", "p1:4", "--db", sqlite).status, 0)
        let before = try view(sqlite)
        XCTAssertTrue(before.contains { $0.contains(#""read":true"#) } && before.contains { $0.contains(#""saved":true"#) })

        let cluster = try PostgresCluster.shared.get()
        let url = try cluster.createDatabase()
        // The password in the URL itself is accepted and never shown.
        let withPassword = url.replacingOccurrences(of: "://aggr@", with: "://aggr:\(cluster.password)@")
        let copied = try aggr("migrate", "--db", sqlite, "--to", withPassword)
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertTrue(copied.stderr.hasPrefix("copied 299 items, 15 sections and "), copied.stderr)
        XCTAssertFalse((copied.stdout + copied.stderr).contains(cluster.password), copied.stderr)
        XCTAssertEqual(try view(url, environment: cluster.environment), before, "PostgreSQL shows what SQLite showed")

        // Removed items stay removed there: importing them again stores nothing new.
        let again = try aggr("import", "items.ndjson", "--db", url, environment: cluster.environment)
        XCTAssertTrue(again.stderr.hasSuffix("0 new, 0 updated, 299 unchanged, 1 previously removed\n"), again.stderr)

        let back = directory.file("back.sqlite")
        let returned = try aggr("migrate", "--db", url, "--to", back, environment: cluster.environment)
        XCTAssertEqual(returned.status, 0, returned.stderr)
        XCTAssertEqual(try view(back), before, "and back again")
        let next = try aggr("import", "-", "--db", back, input: line(301) + "\n")
        XCTAssertEqual(next.status, 0, next.stderr)
        let rows = try aggr("timeline", "--db", back, "--all", "--format", "tsv", "--limit", "1000").stdout.split(separator: "\n")
        let numbers = Dictionary(
            uniqueKeysWithValues: rows.dropFirst().map { row in
                let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
                return ("\(columns[1]):\(columns[3])", String(columns[0]))
            })
        XCTAssertEqual(numbers["p0:300"], "300", "items keep their numbers")
        XCTAssertEqual(numbers["p1:301"], "301", "new numbers go on past the copied ones")

        // A target that holds items is refused, and left as it was.
        let refused = try aggr("migrate", "--db", sqlite, "--to", url, environment: cluster.environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("already holds items or sections; copy into a new, empty database"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains(cluster.password))
        XCTAssertEqual(try view(url, environment: cluster.environment).count, before.count)
    }

    func testAWrongPasswordOrUnknownSchemeIsAClearError() throws {
        let cluster = try PostgresCluster.shared.get()
        let url = try cluster.createDatabase()
        let wrong = try aggr("timeline", "--db", url, environment: ["PGPASSWORD": "not-the-password"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.hasPrefix("aggr: database \(url): "), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("password authentication failed"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("not-the-password"))
        let unknown = try aggr("timeline", "--db", "mysql://x@127.0.0.1/db")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no storage backend for mysql://"), unknown.stderr)
        let option = try aggr("timeline", "--db", url + "?sslmode=prefer", environment: cluster.environment)
        XCTAssertTrue(option.stderr.contains("sslmode prefer is not supported"), option.stderr)
    }
}
