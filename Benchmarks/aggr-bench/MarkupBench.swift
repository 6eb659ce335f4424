import Aggregator
import AggregatorTestSupport
import Foundation
import Providers

/// Parse-and-map speed on a real 48 KB V2EX node page and a 1 MB RSS feed, beside python3-lxml
/// doing the same extraction (scripts/bench/lxml_extract.py).
struct MarkupBench {
    var run: BenchRun

    /// A deterministic RSS 2.0 document of about 1 MB.
    static func largeFeed() -> String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Bench</title><link>https://bench.example/</link>\n"
        var index = 0
        while text.utf8.count < 1_048_576 {
            text += """
                <item><title>Post \(index): measuring parsers &amp; 数据库 \(index % 97)</title><link>https://bench.example/p/\(index)</link>
                <guid>https://bench.example/p/\(index)</guid><pubDate>Fri, 20 Nov 2026 \(String(format: "%02d", index % 24)):30:00 GMT</pubDate>
                <description>&lt;p&gt;Body of post \(index) with &lt;b&gt;markup&lt;/b&gt; that becomes plain text; 性能测试 \(index).&lt;/p&gt;</description></item>

                """
            index += 1
        }
        return text + "</channel></rss>\n"
    }

    /// The rows of a V2EX node page as items, the extraction a provider does.
    static func v2exRows(_ bytes: [UInt8]) throws -> [Item] {
        let document = try MarkupDocument.html(bytes)
        return try document.select(css: "div.cell[class*=' t_']").compactMap { row -> Item? in
            guard let link = try row.first(css: "span.item_title > a.topic-link"), let href = link.attribute("href") else { return nil }
            let path = href.split(separator: "#")[0]
            let published = try row.first(css: "span[title]")?.attribute("title").flatMap { UpstreamDate.parse($0) }
            let replies = try row.first(css: "a.count_livid").flatMap { Int($0.trimmedText) }
            return Item(
                provider: "v2ex", section: "node/python", id: String(path.split(separator: "/").last ?? ""), kind: .topic,
                title: link.trimmedText, url: "https://www.v2ex.com\(path)",
                author: try row.first(css: "strong a").map { Author(name: $0.trimmedText) }, published: published ?? Date(),
                metrics: Metrics(replies: replies))
        }
    }

    func measure(directory: String) throws {
        print("== parse and map: a 48 KB V2EX node page and a 1 MB RSS feed, aggr beside python3-lxml (goal: at least as fast)")
        guard let shared = SharedFixtures.directory() else {
            print("   skipped: ../shared/fixtures (the real V2EX page) is not beside this checkout")
            return
        }
        let pagePath = "\(shared)/v2ex/html-node-python-2023-05.html"
        let page = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pagePath)))
        let feedPath = "\(directory)/bench-1mb.xml"
        let feedText = Self.largeFeed()
        try feedText.write(toFile: feedPath, atomically: true, encoding: .utf8)
        let feedBytes = Array(feedText.utf8)

        func time(_ runs: Int, _ body: () throws -> Int) rethrows -> (Double, Int) {
            var count = try body()
            let start = Date()
            for _ in 0..<runs { count = try body() }
            return (Date().timeIntervalSince(start) / Double(runs) * 1000, count)
        }
        let (pageMs, rows) = try time(200) { try Self.v2exRows(page).count }
        let mapper = FeedItemMapper(provider: "bench", section: "feed", feedURL: "https://bench.example/rss", now: Date())
        let (feedMs, entries) = try time(20) { mapper.items(try FeedParser(url: "https://bench.example/rss").parse(feedBytes)).count }
        print(
            String(
                format: "   aggr: page %.2f ms (%d rows), feed %.1f ms (%d items, %.1f MB)", pageMs, rows, feedMs, entries,
                Double(feedBytes.count) / 1_048_576))

        if let explore = try? SharedFixtures.own("gitee/explore-recommend.html") {
            let parser = GiteeExploreParser(provider: "gitee", webURL: "https://gitee.com", serverDate: Date())
            let (exploreMs, projects) = try time(500) { try parser.page(explore, section: "featured", ranked: true).items.count }
            print(
                String(
                    format: "   aggr: Gitee explore page %.2f ms (%d rows, %.1f KB, the project's own fixture)", exploreMs, projects,
                    Double(explore.count) / 1024))
        }

        let script = SharedFixtures.repositoryRoot() + "/scripts/bench/lxml_extract.py"
        guard let result = try? run.spawn("/usr/bin/python3", [script, pagePath, feedPath, "200", "20"]), !result.output.isEmpty else {
            print("   python3-lxml not available: `apt-get install python3-lxml` to compare")
            return
        }
        var lxml: [String: Double] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let value = Double(parts[1]) { lxml[String(parts[0])] = value }
        }
        if let lxmlPage = lxml["lxml-page"], let lxmlFeed = lxml["lxml-feed"] {
            print(String(format: "   lxml: page %.2f ms, feed %.1f ms", lxmlPage, lxmlFeed))
            print(String(format: "   ratio (lxml time / aggr time): page %.2f×, feed %.2f×", lxmlPage / pageMs, lxmlFeed / feedMs))
        }
    }
}
