import Foundation

/// A short piece of an item's text around the first word of a search, the match marked.
public enum SearchSnippet {
    /// Up to `width` characters of `text` around the first query word found, the word in
    /// bold when `highlight`; nil when no word occurs in the text.
    public static func make(_ text: String, query: String, width: Int = 80, highlight: Bool) -> String? {
        let clean = TerminalText.sanitize(text)
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.isEmpty }
        guard
            let range = words.lazy.compactMap({ clean.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive]) }).first
        else { return nil }
        let before = clean[..<range.lowerBound]
        let after = clean[range.upperBound...]
        let room = max(10, (width - clean[range].count) / 2)
        let head = before.count > room ? "…" + before.suffix(room - 1) : String(before)
        let tail = after.count > room ? after.prefix(room - 1) + "…" : String(after)
        return head + TextStyle.bold.apply(String(clean[range]), enabled: highlight) + tail
    }
}
