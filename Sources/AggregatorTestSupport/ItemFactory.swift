import Aggregator
import Foundation

/// Builds items for tests and benchmarks with sensible defaults.
public enum ItemFactory {
    /// A fixed reference time, 2026-11-21T00:00:00Z, so expectations do not drift.
    public static let epoch = Date(timeIntervalSince1970: 1_795_219_200)

    /// One item; `minutesAgo` counts back from ``epoch``.
    public static func item(
        provider: String = "forum", section: String = "hot", id: String, title: String? = nil,
        url: String? = nil, minutesAgo: Int = 0, kind: ItemKind = .topic, summary: String = "",
        author: String? = "alice", tags: [String] = [], metrics: Metrics = Metrics()
    ) -> Item {
        Item(
            provider: provider, section: section, id: id, kind: kind, title: title ?? "Item \(id)",
            url: url ?? "https://\(provider).example/t/\(id)", author: author.map { Author(name: $0) },
            summary: summary, published: epoch.addingTimeInterval(Double(-60 * minutesAgo)), tags: tags,
            metrics: metrics)
    }

    /// `count` synthetic items with varied text, for volume tests and benchmarks.
    public static func synthetic(provider: String, section: String = "hot", count: Int, startingAt start: Int = 0) -> [Item] {
        let words = ["swift", "concurrency", "sqlite", "release", "并发", "数据库", "性能", "linux", "curl", "parser", "timeline", "テスト"]
        return (start..<(start + count)).map { number in
            let a = words[number % words.count]
            let b = words[(number / 7) % words.count]
            let c = words[(number / 53) % words.count]
            return Item(
                provider: provider, section: section, id: String(number), kind: .topic,
                title: "\(a) \(b) question number \(number) about \(c)",
                url: "https://\(provider).example/t/\(number)", author: Author(name: "user\(number % 997)"),
                summary: "Discussion of \(a) and \(b) with \(c): item \(number) body text that is long enough to index.",
                published: epoch.addingTimeInterval(Double(-number * 37)), tags: [a, c],
                metrics: Metrics(replies: number % 50))
        }
    }
}
