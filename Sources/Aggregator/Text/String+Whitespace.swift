extension StringProtocol {
    /// The text without leading and trailing Unicode white space (spaces, tabs, line breaks,
    /// U+00A0, U+3000…).
    ///
    /// The same result as `trimmingCharacters(in: .whitespacesAndNewlines)` (which on Linux
    /// also trims U+200B ZERO WIDTH SPACE), without Foundation's NSString round trip, and
    /// without copying text that has none to trim.
    public func trimmingWhitespace() -> String {
        let text = String(self)
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return "" }
        if !isTrimmed(first) && !isTrimmed(last) { return text }
        guard let start = scalars.firstIndex(where: { !isTrimmed($0) }), let end = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(Substring(scalars[start...end]))
    }
}

/// Whether `scalar` is white space as Foundation's `whitespacesAndNewlines` counts it.
private func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar.value == 0x200B
}
