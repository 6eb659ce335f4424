/// Measures and fits text in terminal columns: CJK and emoji take two, combining marks none.
public enum DisplayWidth {
    /// The number of terminal columns `text` occupies.
    public static func of(_ text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        var width = 0
        for scalar in text.unicodeScalars {
            guard let columns = standaloneWidth(scalar.value) else { return text.reduce(0) { $0 + of($1) } }
            width += columns
        }
        return width
    }

    /// The columns of a scalar that is a grapheme cluster of its own whatever surrounds it
    /// (printable ASCII and Latin, general punctuation, CJK ideographs and punctuation, kana,
    /// Hangul syllables, full-width forms); nil for one that may join a cluster.
    ///
    /// Text made only of these, as most titles in Chinese, Japanese and Korean are, is
    /// measured scalar by scalar, without the grapheme-cluster walk (the larger part of
    /// rendering a timeline page of such titles). Gives what ``of(_:)-(Unicode.Scalar)``
    /// gives for the same scalar.
    static func standaloneWidth(_ value: UInt32) -> Int? {
        switch value {
        case 0x20..<0x7F: return 1
        case 0xAD: return 0
        case 0xA0..<0x300, 0x2010...0x2027, 0x2030...0x205E: return 1
        case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60:
            return 2
        default: return nil
        }
    }

    /// The longest start of `text` within `width` columns when every scalar stands alone
    /// (``standaloneWidth(_:)``); nil for other text.
    private static func standalonePrefix(_ text: String, fitting width: Int) -> String? {
        var end = text.unicodeScalars.startIndex
        var used = 0
        var fitted = false
        for index in text.unicodeScalars.indices {
            guard let next = standaloneWidth(text.unicodeScalars[index].value) else { return nil }
            if !fitted {
                if used + next > width {
                    fitted = true
                } else {
                    used += next
                    end = text.unicodeScalars.index(after: index)
                }
            }
        }
        return String(text.unicodeScalars[..<end])
    }

    /// Whether every byte of `text` is a printable ASCII character (one column each), which
    /// spares the grapheme-cluster walk most titles and columns would otherwise pay.
    static func isPrintableASCII(_ text: String) -> Bool {
        !text.utf8.contains { $0 < 0x20 || $0 >= 0x7F }
    }

    /// The columns of one grapheme cluster.
    public static func of(_ character: Character) -> Int {
        if character.isASCII { return character.asciiValue.map { $0 >= 0x20 && $0 < 0x7F ? 1 : 0 } ?? 1 }
        var width = 0
        for scalar in character.unicodeScalars {
            width = max(width, of(scalar))
        }
        return width
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth blocks (UAX #11), coarse but covering real text.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` cut to at most `width` columns, ending in "…" when cut, never splitting a
    /// grapheme cluster.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        if isPrintableASCII(text) { return String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + "…" }
        if let fitted = standalonePrefix(text, fitting: width - 1) { return fitted + "…" }
        var result = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// The longest start of `text` that fits in `width` columns, cut without a mark.
    public static func prefix(_ text: String, fitting width: Int) -> String {
        if let fitted = standalonePrefix(text, fitting: width) { return fitted }
        var result = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next > width { break }
            result.append(character)
            used += next
        }
        return result
    }

    /// `text` fitted to exactly `width` columns: truncated, then padded with spaces.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let fitted = truncate(text, to: width)
        let padding = String(repeating: " ", count: max(0, width - of(fitted)))
        return alignRight ? padding + fitted : fitted + padding
    }
}
