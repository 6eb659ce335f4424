import Aggregator
import AggregatorTestSupport
import XCTest

/// A test case with a fresh SQLite file per test.
class StoreTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        store = try Store(path: directory.file("aggr.sqlite"))
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
