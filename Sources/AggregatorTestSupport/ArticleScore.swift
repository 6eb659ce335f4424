import Aggregator
import Foundation

/// How close an extracted article's text is to the expected one: the F1 of their word
/// multisets (a CJK character counts as a word), case folded, punctuation kept apart.
public enum ArticleScore {
    /// The words of `text`.
    public static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for scalar in text.lowercased().unicodeScalars {
            let value = scalar.value
            let cjk = (0x3040...0x30FF).contains(value) || (0x3400...0x9FFF).contains(value) || (0xAC00...0xD7AF).contains(value)
            if CharacterSet.alphanumerics.contains(scalar), !cjk {
                word.unicodeScalars.append(scalar)
                continue
            }
            if !word.isEmpty {
                tokens.append(word)
                word = ""
            }
            if cjk { tokens.append(String(scalar)) }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    /// The F1 of `extracted` against `expected` (1 when both are empty).
    public static func f1(extracted: String, expected: String) -> Double {
        let found = tokens(extracted)
        let wanted = tokens(expected)
        if found.isEmpty && wanted.isEmpty { return 1 }
        guard !found.isEmpty, !wanted.isEmpty else { return 0 }
        var counts: [String: Int] = [:]
        for token in wanted { counts[token, default: 0] += 1 }
        var common = 0
        for token in found where (counts[token] ?? 0) > 0 {
            counts[token]! -= 1
            common += 1
        }
        guard common > 0 else { return 0 }
        let precision = Double(common) / Double(found.count)
        let recall = Double(common) / Double(wanted.count)
        return 2 * precision * recall / (precision + recall)
    }

    /// One Mozilla Readability test page: its name, source bytes, expected text and metadata.
    public struct Page: Sendable {
        public var name: String
        public var source: [UInt8]
        public var expectedText: String
        public var expectedTitle: String?
        public var expectedByline: String?
    }

    /// The pages in `../shared/fixtures/readability`, or nil when the folder is absent.
    public static func pages() -> [Page]? {
        guard let directory = SharedFixtures.directory().map({ "\($0)/readability" }),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return nil }
        return names.sorted().compactMap { name in
            guard let source = FileManager.default.contents(atPath: "\(directory)/\(name)/source.html"),
                let expected = try? String(contentsOfFile: "\(directory)/\(name)/expected.html", encoding: .utf8)
            else { return nil }
            let metadata = FileManager.default.contents(atPath: "\(directory)/\(name)/expected-metadata.json")
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            return Page(
                name: name, source: [UInt8](source), expectedText: HTMLText.plainText(expected),
                expectedTitle: metadata?["title"] as? String,
                expectedByline: metadata?["byline"] as? String)
        }
    }
}
