import Aggregator
import AggregatorTestSupport
import XCTest

/// Two real aggr processes writing one database at once must neither fail with
/// "database is locked" nor duplicate nor corrupt.
final class ConcurrentWriterTests: EndToEndTestCase {
    func batch(provider: String, range: Range<Int>) -> String {
        var lines = ""
        for number in range {
            var item = ItemFactory.synthetic(provider: provider, section: "s\(number % 40)", count: 1, startingAt: number)[0]
            item.title += " from \(provider)"
            lines += ItemJSON.line(item) + "\n"
        }
        return lines
    }

    func testTwoProcessesImportingOverlappingItemsAtOnce() throws {
        // Each file has 40 sections, so each process runs 40 write transactions that interleave.
        let first = directory.write("a.ndjson", batch(provider: "shared", range: 0..<3_000))
        let second = directory.write("b.ndjson", batch(provider: "shared", range: 1_500..<4_500))
        let other = directory.write("c.ndjson", batch(provider: "other", range: 0..<2_000))
        let runner = self.runner!
        let results = LockedResults()
        let group = DispatchGroup()
        for file in [first, second, other] {
            group.enter()
            Thread {
                let result = try? runner.run(["import", file])
                results.append(result)
                group.leave()
            }.start()
        }
        group.wait()
        for result in results.all {
            let result = try XCTUnwrap(result)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stderr.contains("locked"), result.stderr)
        }
        let store = try openStore()
        XCTAssertEqual(try store.itemCounts().mapValues(\.total), ["shared": 4_500, "other": 2_000])
        var query = TimelineQuery()
        query.limit = 10_000
        query.dedupe = false
        let items = try store.timeline(query).items
        XCTAssertEqual(Set(items.map { "\($0.item.provider):\($0.item.id)" }).count, 6_500, "no duplicates")
        XCTAssertEqual(try store.search("question number 2999").count, 1, "the full-text index is intact")
    }
}

/// Results collected from threads.
final class LockedResults: @unchecked Sendable {
    // Invariant: `results` is only touched while holding `lock`.
    private let lock = NSLock()
    private var results: [CLIRunner.Result?] = []

    func append(_ result: CLIRunner.Result?) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var all: [CLIRunner.Result?] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
