/// Normalizes upstream text for items: one-line titles and short plain-text summaries.
public enum ItemText {
    /// The longest summary kept, in characters (grapheme clusters, so CJK and emoji never split).
    public static let summaryLength = 280

    /// `text` as a one-line title.
    public static func title(_ text: String) -> String {
        TerminalText.sanitize(text)
    }

    /// `text` (plain or HTML) as a one-line summary of at most ``summaryLength`` characters.
    public static func summary(_ text: String) -> String {
        TerminalText.excerpt(HTMLText.plainText(text), limit: summaryLength)
    }
}
