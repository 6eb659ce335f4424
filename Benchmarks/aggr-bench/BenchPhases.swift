import Aggregator
import AggregatorTestSupport
import Foundation

/// The measured work, run inside a child process.
enum BenchPhases {
    /// A database of `count` synthetic items over ten feed providers, and their config.
    ///
    /// The config has two views (swift: a regex, busy: a number); the front ends are timed on it.
    static func frontEndFixture(in directory: String, name: String, count: Int) throws -> (database: String, config: String) {
        let database = "\(directory)/\(name).sqlite"
        try ingest(database: database, count: count, report: false)
        let providers = (0..<10).map { "{\"id\": \"p\($0)\", \"type\": \"feed\", \"options\": {\"url\": \"https://p\($0).example/feed\"}}" }
        let config = "\(directory)/\(name)-providers.json"
        try "{\"providers\": [\(providers.joined(separator: ","))], \"views\": {\"swift\": \"title ~ 'swift'\", \"busy\": \"replies > 5\"}}"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (database, config)
    }

    /// Ingests `count` synthetic items, 1,000 per provider×section transaction, like a refresh.
    static func ingest(database: String, count: Int, report: Bool) throws {
        let store = try Store(path: database)
        let batch = 1_000
        var generated: TimeInterval = 0
        var stored: TimeInterval = 0
        var offset = 0
        while offset < count {
            let start = Date()
            let provider = "p\(offset / batch % 10)"
            let items = ItemFactory.synthetic(
                provider: provider, section: "s\(offset / batch % 7)", count: min(batch, count - offset), startingAt: offset)
            let made = Date()
            try store.ingest(
                items, section: Section(provider: provider, key: "s\(offset / batch % 7)", title: "Bench"), now: ItemFactory.epoch)
            generated += made.timeIntervalSince(start)
            stored += Date().timeIntervalSince(made)
            offset += batch
        }
        if report {
            print(
                String(
                    format: "ingest-rate %.0f items/s (store only: %.2f s for %d items; generating them took %.2f s)",
                    Double(count) / stored, stored, count, generated))
        }
    }

    /// Times representative queries against the full-text index, median of 15 runs each.
    static func fullTextQueries(database: String) throws {
        let store = try Store(path: database)
        for query in ["concurrency", "数据库", "question number 123456", "timeline parser"] {
            var times: [Double] = []
            var hits = 0
            for _ in 0..<15 {
                let start = Date()
                hits = try store.search(query, limit: 50).count
                times.append(Date().timeIntervalSince(start) * 1000)
            }
            times.sort()
            print(String(format: "fts %@ median %.1f ms, worst %.1f ms (%d hits shown)", "\"\(query)\"", times[7], times[14], hits))
        }
    }
}
