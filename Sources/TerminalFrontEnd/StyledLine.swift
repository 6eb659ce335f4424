import Aggregator

/// How a run of text is drawn.
public enum TextAttribute: Sendable, Equatable {
    case plain, bold, dim, selected, unread, accent, error, tab, currentTab
}

/// One line of the screen: runs of text, each with its attribute.
public struct StyledLine: Sendable, Equatable {
    public var spans: [(text: String, attribute: TextAttribute)]

    public init(_ spans: [(String, TextAttribute)] = []) {
        self.spans = spans.map { (text: $0.0, attribute: $0.1) }
    }

    public init(_ text: String, _ attribute: TextAttribute = .plain) {
        self.init([(text, attribute)])
    }

    /// The line's text without attributes.
    public var text: String { spans.map(\.text).joined() }

    /// The line cut to `width` display columns (CJK counts two).
    public func truncated(to width: Int) -> StyledLine {
        var remaining = width
        var result: [(String, TextAttribute)] = []
        for span in spans where remaining > 0 {
            let cut = DisplayWidth.truncate(span.text, to: remaining)
            remaining -= DisplayWidth.of(cut)
            result.append((cut, span.attribute))
        }
        return StyledLine(result)
    }

    public static func == (lhs: StyledLine, rhs: StyledLine) -> Bool {
        lhs.spans.count == rhs.spans.count && zip(lhs.spans, rhs.spans).allSatisfy { $0.text == $1.text && $0.attribute == $1.attribute }
    }
}
