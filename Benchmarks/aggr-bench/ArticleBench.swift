import Aggregator
import AggregatorTestSupport
import Foundation

/// The article extractor over Mozilla Readability's 77 test pages: text F1 against
/// Readability.js's expected articles (mean and the worst pages), titles right, and the time
/// per page beside Debian's python3-readability (readability-lxml) on the same pages, each
/// timed inside its own process after parsing its input (the peer's interpreter start left out).
struct ArticleBench {
    func measure(directory: String) throws {
        guard let pages = ArticleScore.pages(), !pages.isEmpty else {
            print("== article extraction: ../shared/fixtures/readability is absent; skipped")
            return
        }
        print("== article extraction over \(pages.count) Readability test pages (goal: mean F1 >= 0.95, none < 0.6, titles >= 95%)")
        var scores: [(String, Double)] = []
        var titles = 0
        let extractor = ArticleExtractor()
        var elapsed = 0.0
        for _ in 0..<3 {
            let start = Date()
            for page in pages { _ = extractor.extract(page.source, url: "http://fakehost/test/page.html") }
            elapsed += Date().timeIntervalSince(start)
        }
        for page in pages {
            let article = extractor.extract(page.source, url: "http://fakehost/test/page.html")
            scores.append((page.name, ArticleScore.f1(extracted: article?.text ?? "", expected: page.expectedText)))
            let normalize = { (text: String?) in (text ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            if normalize(article?.title) == normalize(page.expectedTitle) { titles += 1 }
        }
        let mean = scores.map(\.1).reduce(0, +) / Double(scores.count)
        let perPage = elapsed / 3 / Double(pages.count) * 1_000
        print(String(format: "   aggr: mean text F1 %.3f, titles %d/%d, %.2f ms a page", mean, titles, pages.count, perPage))
        print("   worst: " + scores.sorted { $0.1 < $1.1 }.prefix(5).map { String(format: "%@ %.3f", $0.0, $0.1) }.joined(separator: ", "))
        let script = """
            import glob, os, sys, time
            from readability import Document
            pages = [open(path, "rb").read() for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "source.html")))]
            start = time.perf_counter()
            for _ in range(3):
                for page in pages:
                    document = Document(page)
                    document.summary()
                    document.title()
            print((time.perf_counter() - start) / 3 / len(pages) * 1000)
            """
        let path = "\(directory)/peer_readability.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let peer = try ToolOutput.run("/usr/bin/python3", [path, (SharedFixtures.directory() ?? "") + "/readability"])
        if peer.status == 0, let milliseconds = Double(peer.text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            print(String(format: "   python3-readability: %.2f ms a page; aggr/peer %.2f", milliseconds, perPage / milliseconds))
        } else {
            print("   python3-readability: not measured (apt-get install python3-readability): \(peer.text.prefix(200))")
        }
    }
}
