import Foundation

/// A short piece of an item's text around the first word of a search, the match marked.
public enum SearchSnippet {
    /// The piece of text around a match: what comes before, the matched word, what follows.
    public struct Parts: Sendable, Equatable {
        public var head: String
        public var match: String
        public var tail: String
    }

    /// The snippet of a search result: cut from its summary and tags, or its author's name
    /// when only that matched (the meta line shows the author otherwise); nil when neither does.
    public static func parts(of item: Item, query: String, width: Int = 80) -> Parts? {
        let text = ([item.summary] + item.tags).filter { !$0.isEmpty }.joined(separator: " ")
        return parts(text, query: query, width: width) ?? item.author.flatMap { parts($0.name, query: query, width: width) }
    }

    /// ``parts(of:query:width:)`` as one line, the match in bold when `highlight`.
    public static func make(of item: Item, query: String, width: Int = 80, highlight: Bool) -> String? {
        parts(of: item, query: query, width: width).map { $0.head + TextStyle.bold.apply($0.match, enabled: highlight) + $0.tail }
    }

    /// Up to `width` characters of `text` around the first query word found, in pieces so each
    /// front end marks the match its own way (bold on a terminal, `<mark>` in the web); control
    /// characters removed; nil when no word occurs in the text.
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
