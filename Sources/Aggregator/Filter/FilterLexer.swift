import Foundation

/// One token of a filter expression.
struct FilterToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case number(Double)
        case duration(TimeSpan)
        case date(Date)
        case regex(pattern: String, caseInsensitive: Bool)
        case symbol(String)
        case end
    }

    var kind: Kind
    /// Character offset of the token's first character.
    var position: Int
}

/// Splits a filter expression into tokens.
struct FilterLexer {
    let characters: [Character]
    let source: String
    var index = 0

    init(_ source: String) {
        self.source = source
        characters = Array(source)
    }

    func fail(_ message: String, at position: Int) -> FilterError {
        FilterError(expression: source, position: position, message: message)
    }

    mutating func tokens() throws(FilterError) -> [FilterToken] {
        // SQLite and C strings end at a NUL: `'feed\0zzz'` would match as `'feed'`.
        if let nul = characters.firstIndex(of: "\u{0}") {
            throw fail(localized("a NUL character is not allowed in a filter"), at: nul)
        }
        var result: [FilterToken] = []
        while true {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
            guard index < characters.count else {
                result.append(FilterToken(kind: .end, position: characters.count))
                return result
            }
            result.append(try next())
        }
    }

    /// The operators and punctuation, longest first, each with its characters (comparing
    /// characters in place; a `String` made per candidate was most of a short filter's parse).
    private static let symbols: [(String, [Character])] =
        ["!~*", "!=", "!~", "~*", "<=", ">=", "==", "=", "~", "<", ">", "(", ")", "[", "]", ","].map { ($0, Array($0)) }

    private mutating func next() throws(FilterError) -> FilterToken {
        let start = index
        let character = characters[index]
        if character == "\"" || character == "'" { return FilterToken(kind: .string(try string(quote: character)), position: start) }
        if character == "/" { return try regex() }
        for (symbol, spelled) in Self.symbols
        where index + spelled.count <= characters.count && characters[index..<(index + spelled.count)].elementsEqual(spelled) {
            index += spelled.count
            return FilterToken(kind: .symbol(symbol == "==" ? "=" : symbol), position: start)
        }
        if character.isNumber, character.isASCII || character == "-" {
            var word = ""
            while index < characters.count, !characters[index].isWhitespace, !"()[],<>=!~".contains(characters[index]) {
                word.append(characters[index])
                index += 1
            }
            if let number = Double(word) { return FilterToken(kind: .number(number), position: start) }
            if let span = TimeSpan(parsing: word) { return FilterToken(kind: .duration(span), position: start) }
            if word.contains("-"), let date = ISOTimestamp.parse(word) { return FilterToken(kind: .date(date), position: start) }
            throw fail(localized("\"\(word)\" is not a number, duration (2d, 90m) or date (2026-11-01)"), at: start)
        }
        if character.isLetter || character == "_" {
            var word = ""
            while index < characters.count,
                characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "-"
            {
                word.append(characters[index])
                index += 1
            }
            return FilterToken(kind: .identifier(word), position: start)
        }
        throw fail(localized("unexpected character \"\(character)\""), at: start)
    }

    /// A quoted string with escapes `\"`, `\'`, `\\`, `\n`, `\t`, `\uXXXX`.
    private mutating func string(quote: Character) throws(FilterError) -> String {
        let start = index
        index += 1
        var value = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == quote { return value }
            guard character == "\\" else {
                value.append(character)
                continue
            }
            guard index < characters.count else { break }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "u":
                guard index + 4 <= characters.count, let code = UInt32(String(characters[index..<(index + 4)]), radix: 16),
                    let scalar = Unicode.Scalar(code)
                else { throw fail(localized("invalid \\u escape; write \\u followed by four hex digits"), at: index - 2) }
                value.unicodeScalars.append(scalar)
                index += 4
            default: value.append(escaped)
            }
        }
        throw fail(localized("unterminated string; close it with \(quote)"), at: start)
    }

    /// `/pattern/` or `/pattern/i`.
    private mutating func regex() throws(FilterError) -> FilterToken {
        let start = index
        index += 1
        var pattern = ""
        while index < characters.count, characters[index] != "/" {
            if characters[index] == "\\", index + 1 < characters.count, characters[index + 1] == "/" {
                pattern.append("/")
                index += 2
                continue
            }
            pattern.append(characters[index])
            index += 1
        }
        guard index < characters.count else { throw fail(localized("unterminated regular expression; close it with /"), at: start) }
        index += 1
        var insensitive = false
        if index < characters.count, characters[index] == "i" {
            insensitive = true
            index += 1
        }
        return FilterToken(kind: .regex(pattern: pattern, caseInsensitive: insensitive), position: start)
    }
}
