import Foundation

/// A short piece of an item's text around the first word of a search, the match marked.
public enum SearchSnippet {
    /// The piece of text around a match: what comes before, the matched word, what follows.
    public struct Parts: Sendable, Equatable {
        public var head: String
        public var match: String
        public var tail: String
    }

    /// The text a snippet is cut from: the summary and tags, or the author's name when the
    /// search matched only that (the meta line already shows the author otherwise).
    public static func searchedText(of item: Item, query: String) -> String {
        let text = ([item.summary] + item.tags).filter { !$0.isEmpty }.joined(separator: " ")
        guard let author = item.author?.name, parts(text, query: query) == nil else { return text }
        return author
    }

    /// Up to `width` characters of `text` around the first query word found, the word in
    /// bold when `highlight`; nil when no word occurs in the text.
    public static func make(_ text: String, query: String, width: Int = 80, highlight: Bool) -> String? {
        parts(text, query: query, width: width).map { $0.head + TextStyle.bold.apply($0.match, enabled: highlight) + $0.tail }
    }

    /// The pieces of ``make(_:query:width:highlight:)``, for front ends that mark the match
    /// their own way (the web wraps it in `<mark>`); control characters removed.
    public static func parts(_ text: String, query: String, width: Int = 80) -> Parts? {
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
        return Parts(head: head, match: String(clean[range]), tail: tail)
    }
}
