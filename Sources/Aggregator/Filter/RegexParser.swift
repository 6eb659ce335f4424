/// A parsed pattern, before compilation.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar)
    case set(ScalarSet)
    /// `\w`-like classes that are not ranges.
    case word(negated: Bool)
    case any
    case assertion(RegexAssertion)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)

    /// The pattern's scalars when it is one literal string and nothing else.
    var literalScalars: [Unicode.Scalar]? {
        switch self {
        case .scalar(let scalar): return [scalar]
        case .concatenation(let parts):
            var scalars: [Unicode.Scalar] = []
            for part in parts {
                guard case .scalar(let scalar) = part else { return nil }
                scalars.append(scalar)
            }
            return scalars
        default: return nil
        }
    }
}

/// Recursive-descent parser for ``LinearRegex`` patterns, with a nesting limit.
struct RegexParser {
    static let maximumNesting = 100

    let scalars: [Unicode.Scalar]
    var index = 0
    var depth = 0
    var caseInsensitive: Bool

    init(_ scalars: [Unicode.Scalar], caseInsensitive: Bool) {
        self.scalars = scalars
        self.caseInsensitive = caseInsensitive
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func fail(_ message: String, at offset: Int? = nil) -> LinearRegex.SyntaxError {
        LinearRegex.SyntaxError(message: message, offset: offset ?? index)
    }

    mutating func parse() throws(LinearRegex.SyntaxError) -> RegexNode {
        // A leading (?i) applies to the whole pattern.
        if scalars.starts(with: Array("(?i)".unicodeScalars)) {
            caseInsensitive = true
            index = 4
        }
        let node = try parseAlternation()
        if index < scalars.count { throw fail("unmatched )") }
        return node
    }

    mutating func parseAlternation() throws(LinearRegex.SyntaxError) -> RegexNode {
        var branches = [try parseConcatenation()]
        while current == "|" {
            index += 1
            branches.append(try parseConcatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseConcatenation() throws(LinearRegex.SyntaxError) -> RegexNode {
        var parts: [RegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            let atom = try parseAtom()
            parts.append(try parseQuantifiers(atom))
        }
        return parts.count == 1 ? parts[0] : (parts.isEmpty ? .empty : .concatenation(parts))
    }

    mutating func parseQuantifiers(_ atom: RegexNode) throws(LinearRegex.SyntaxError) -> RegexNode {
        var node = atom
        while let scalar = current {
            let start = index
            var bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try parseBraces() else { return node }
                bounds = counted
            default: return node
            }
            if case .assertion = node { throw fail(localized("nothing to repeat"), at: start) }
            if case .empty = node { throw fail(localized("nothing to repeat"), at: start) }
            if scalar != "{" { index += 1 }
            // Lazy (`*?`) and possessive (`*+`) forms match the same texts.
            if current == "?" || current == "+" { index += 1 }
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}`; nil (a literal brace) when it is not one of those.
    mutating func parseBraces() throws(LinearRegex.SyntaxError) -> (Int, Int?)? {
        let start = index
        var cursor = index + 1
        func number(_ cursor: inout Int) -> Int? {
            var value = 0
            var digits = 0
            while cursor < scalars.count, let digit = Int(String(scalars[cursor])), scalars[cursor].isASCII {
                value = min(value * 10 + digit, 100_000)
                digits += 1
                cursor += 1
            }
            return digits > 0 ? value : nil
        }
        guard let low = number(&cursor) else { return nil }
        var high: Int? = low
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            high = number(&cursor)
        }
        guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
        if let high, high < low { throw fail("repetition {\(low),\(high)} counts down", at: start) }
        if low > 1_000 || (high ?? 0) > 1_000 { throw fail(localized("repetition count above 1000"), at: start) }
        index = cursor + 1
        return (low, high)
    }

    mutating func parseAtom() throws(LinearRegex.SyntaxError) -> RegexNode {
        let start = index
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case ".": return .any
        case "^": return .assertion(.lineStart)
        case "$": return .assertion(.lineEnd)
        case "[": return .set(try parseClass())
        case "\\": return try parseEscape(inClass: false).node
        case "*", "+", "?": throw fail(localized("nothing to repeat"), at: start)
        case "(":
            depth += 1
            if depth > Self.maximumNesting { throw fail(localized("groups nested deeper than \(Self.maximumNesting)"), at: start) }
            defer { depth -= 1 }
            if current == "?" {
                index += 1
                switch current {
                case ":": index += 1
                case "<" where index + 1 < scalars.count && scalars[index + 1] != "=" && scalars[index + 1] != "!",
                    "P" where index + 1 < scalars.count && scalars[index + 1] == "<":
                    while let c = current, c != ">" { index += 1 }
                    guard current == ">" else { throw fail(localized("unterminated group name"), at: start) }
                    index += 1
                case "=", "!", "<":
                    throw fail(localized("look-around is not supported (filters match in linear time)"), at: start)
                case "i" where index + 1 < scalars.count && scalars[index + 1] == ")":
                    throw fail(localized("(?i) is only supported at the start of the pattern"), at: start)
                default:
                    throw fail(localized("unsupported group (?\(current.map { String($0) } ?? ""))"), at: start)
                }
            }
            let inner = try parseAlternation()
            guard current == ")" else { throw fail("missing )", at: start) }
            index += 1
            return inner
        default:
            return .scalar(scalar)
        }
    }

    /// An escape after `\`: a node, or in a class a set of ranges.
    mutating func parseEscape(inClass: Bool) throws(LinearRegex.SyntaxError) -> (node: RegexNode, ranges: [ClosedRange<UInt32>]?) {
        let start = index - 1
        guard let scalar = current else { throw fail(localized("pattern ends with \\"), at: start) }
        index += 1
        func single(_ value: UInt32) -> (RegexNode, [ClosedRange<UInt32>]?) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            return (.scalar(scalar), [scalar.value...scalar.value])
        }
        switch scalar {
        case "d": return (.set(ScalarSet(ranges: NamedClass.digit)), NamedClass.digit)
        case "D": return (.set(ScalarSet(ranges: NamedClass.digit, negated: true)), nil)
        case "s": return (.set(ScalarSet(ranges: NamedClass.space)), NamedClass.space)
        case "S": return (.set(ScalarSet(ranges: NamedClass.space, negated: true)), nil)
        case "w": return (.word(negated: false), nil)
        case "W": return (.word(negated: true), nil)
        case "b" where !inClass: return (.assertion(.wordBoundary), nil)
        case "B" where !inClass: return (.assertion(.notWordBoundary), nil)
        case "A" where !inClass: return (.assertion(.textStart), nil)
        case "z" where !inClass: return (.assertion(.textEnd), nil)
        case "Z" where !inClass: return (.assertion(.textEndBeforeNewline), nil)
        case "t": return single(0x09)
        case "n": return single(0x0A)
        case "r": return single(0x0D)
        case "f": return single(0x0C)
        case "v": return single(0x0B)
        case "a": return single(0x07)
        case "e": return single(0x1B)
        case "0": return single(0)
        case "x":
            if current == "{" {
                index += 1
                let value = try hexDigits(max: 6)
                guard current == "}" else { throw fail("unterminated \\x{…}", at: start) }
                index += 1
                return single(value)
            }
            return single(try hexDigits(exactly: 2))
        case "u": return single(try hexDigits(exactly: 4))
        case "1"..."9": throw fail(localized("back-references are not supported (filters match in linear time)"), at: start)
        default:
            if scalar.properties.isAlphabetic && scalar.isASCII { throw fail(localized("unknown escape \\\(scalar)"), at: start) }
            return single(scalar.value)
        }
    }

    mutating func hexDigits(exactly count: Int) throws(LinearRegex.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let scalar = current, let digit = Self.hex(scalar) else {
                throw fail(localized("expected a hexadecimal digit"))
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func hexDigits(max count: Int) throws(LinearRegex.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        while digits < count, let scalar = current, let digit = Self.hex(scalar) {
            value = value << 4 | digit
            index += 1
            digits += 1
        }
        guard digits > 0, value <= 0x10FFFF else { throw fail(localized("expected a hexadecimal code point")) }
        return value
    }

    static func hex(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: scalar.value - 0x30
        case 0x41...0x46: scalar.value - 0x41 + 10
        case 0x61...0x66: scalar.value - 0x61 + 10
        default: nil
        }
    }

    /// A bracket class after `[`.
    mutating func parseClass() throws(LinearRegex.SyntaxError) -> ScalarSet {
        let start = index - 1
        var set = ScalarSet()
        var wordClasses: [Bool] = []
        if current == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = current else { throw fail("missing ]", at: start) }
            if scalar == "]" && !first {
                index += 1
                break
            }
            first = false
            if scalar == "[" && index + 1 < scalars.count && scalars[index + 1] == ":" {
                throw fail(localized("POSIX classes such as [:alpha:] are not supported; use \\w, \\d or \\s"), at: index)
            }
            var low: UInt32
            index += 1
            if scalar == "\\" {
                let (node, ranges) = try parseEscape(inClass: true)
                if case .word(let negated) = node {
                    wordClasses.append(negated)
                    continue
                }
                guard let ranges, ranges.count == 1, ranges[0].lowerBound == ranges[0].upperBound else {
                    if let ranges {
                        set.ranges += ranges
                    } else {
                        throw fail(localized("negated classes inside [ ] are not supported"), at: index - 2)
                    }
                    continue
                }
                low = ranges[0].lowerBound
            } else {
                low = scalar.value
            }
            if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                guard let end = current else { throw fail("missing ]", at: start) }
                index += 1
                var high = end.value
                if end == "\\" {
                    let (_, ranges) = try parseEscape(inClass: true)
                    guard let ranges, ranges.count == 1, ranges[0].lowerBound == ranges[0].upperBound else {
                        throw fail(localized("bad range end"), at: index - 1)
                    }
                    high = ranges[0].lowerBound
                }
                guard low <= high else { throw fail(localized("range out of order"), at: index - 1) }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
        for negated in wordClasses {
            if negated { throw fail(localized("\\W inside [ ] is not supported"), at: start) }
            set.includesWord = true
        }
        return set
    }
}
