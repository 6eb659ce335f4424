import Aggregator

/// Wraps text to a width in display columns: words stay whole where they fit, CJK text
/// breaks between any two characters, and over-long words are cut.
enum TextWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        let width = max(4, width)
        var output: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            func flush() {
                output.append(line)
                line = ""
                lineWidth = 0
            }
            for token in tokens(String(paragraph)) {
                let tokenWidth = DisplayWidth.of(token)
                if token == " " {
                    if lineWidth > 0, lineWidth < width {
                        line += " "
                        lineWidth += 1
                    }
                    continue
                }
                if lineWidth + tokenWidth > width, lineWidth > 0 {
                    while line.hasSuffix(" ") { line.removeLast() }
                    flush()
                }
                if tokenWidth > width {
                    var rest = token
                    while DisplayWidth.of(rest) > width - lineWidth {
                        let piece = DisplayWidth.prefix(rest, fitting: width - lineWidth)
                        guard !piece.isEmpty else { break }
                        line += piece
                        rest = String(rest.dropFirst(piece.count))
                        flush()
                    }
                    line += rest
                    lineWidth += DisplayWidth.of(rest)
                } else {
                    line += token
                    lineWidth += tokenWidth
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            output.append(line)
        }
        return output
    }

    /// Words, single spaces, and each wide (CJK) character on its own.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            if character == " " || character == "\t" {
                if !word.isEmpty { tokens.append(word) }
                word = ""
                tokens.append(" ")
            } else if DisplayWidth.of(character) == 2 {
                if !word.isEmpty { tokens.append(word) }
                word = ""
                tokens.append(String(character))
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }
}
