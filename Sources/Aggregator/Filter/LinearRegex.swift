/// A regular expression that matches in time linear in the text, whatever the pattern.
///
/// Filters run their patterns over upstream text that anyone can write: with a
/// backtracking engine, `(a+)+$` against forty `a`s and a `!` takes seconds, and such a
/// title would stall every timeline that pattern sits in. This engine compiles the pattern
/// to a program for a Pike VM (Thompson's construction simulated over all threads at once),
/// so a match costs at most text length × program size steps.
///
/// The syntax is the common subset of ICU's and POSIX's: literals and escapes (`\t`,
/// `\n`, `\x41`, `\x{263A}`, `\u263A`), `.`, classes (`[a-z]`, `[^…]`, `\d \w \s` and
/// their negations), anchors (`^ $ \A \z \Z \b \B`), groups (`( )`, `(?: )`,
/// `(?<name> )`), alternation, the quantifiers `* + ? {n} {n,} {n,m}` (lazy and possessive
/// forms are accepted: for "does it match" they mean the same), and the flag `(?i)`.
/// Back-references and look-around need backtracking and are refused with a message.
public struct LinearRegex: Sendable {
    /// Why a pattern was refused, with the offset (in characters) of the fault.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var offset: Int
        public var description: String { localized("\(message) at offset \(offset)") }
    }

    /// The largest program a pattern may compile to (`(a{1000}){1000}` would be a million).
    public static let maximumProgramSize = 20_000

    let program: [Instruction]
    /// The pattern's text when it is a plain literal: matched by a substring search.
    let literal: [UInt8]?
    let caseInsensitive: Bool

    /// Compiles `pattern`; `caseInsensitive` is the same as a leading `(?i)`.
    public init(_ pattern: String, caseInsensitive: Bool = false) throws(SyntaxError) {
        var parser = RegexParser(Array(pattern.unicodeScalars), caseInsensitive: caseInsensitive)
        let node = try parser.parse()
        var compiler = RegexCompiler()
        try compiler.emit(node)
        compiler.program.append(.match)
        program = compiler.program
        self.caseInsensitive = parser.caseInsensitive
        // A plain word (the usual `title ~ "swift"`) needs no machine: a byte search finds it.
        if let scalars = node.literalScalars, !self.caseInsensitive || scalars.allSatisfy(\.isASCII) {
            let bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
            literal = self.caseInsensitive ? bytes.map(Self.lowerASCII) : bytes
        } else {
            literal = nil
        }
    }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        if let literal {
            var text = text
            return text.withUTF8 { Self.contains($0, literal, foldingASCII: caseInsensitive) }
        }
        var machine = PikeVM(program: program, caseInsensitive: caseInsensitive)
        return machine.run(Array(text.unicodeScalars))
    }

    static func lowerASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// Whether `needle` occurs in `haystack`, optionally ignoring ASCII case.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], foldingASCII: Bool) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            let byte = foldingASCII ? lowerASCII(haystack[index]) : haystack[index]
            if byte == first {
                var offset = 1
                while offset < needle.count {
                    let candidate = foldingASCII ? lowerASCII(haystack[index + offset]) : haystack[index + offset]
                    if candidate != needle[offset] { break }
                    offset += 1
                }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}

/// One step of a compiled pattern.
enum Instruction: Sendable {
    case scalar(Unicode.Scalar)
    case set(ScalarSet)
    case any
    case split(Int, Int)
    case jump(Int)
    case assert(RegexAssertion)
    case match
}

/// Zero-width conditions.
enum RegexAssertion: Sendable {
    case lineStart, lineEnd, textStart, textEnd, textEndBeforeNewline, wordBoundary, notWordBoundary
}

/// A character class: ranges and named classes, possibly negated.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var negated = false
    /// `\w` written inside the brackets.
    var includesWord = false

    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        var found = ranges.contains { $0.contains(scalar.value) } || (includesWord && NamedClass.isWord(scalar))
        if !found, caseInsensitive {
            for variant in RegexCase.variants(of: scalar) where variant != scalar {
                if ranges.contains(where: { $0.contains(variant.value) }) {
                    found = true
                    break
                }
            }
        }
        return found != negated
    }
}

/// Simple one-scalar case folding for `(?i)`.
enum RegexCase {
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 0x20)! : scalar
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    static func variants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        return [fold(scalar)] + (upper.count == 1 ? [upper.first!] : [])
    }
}

/// The named classes `\d \w \s` as ranges (ASCII digits and word characters plus letters
/// and digits of every script, as ICU's are Unicode-aware).
enum NamedClass {
    static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
    static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x3000...0x3000]

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
