/// A JSON (RFC 8259) parser producing ``JSONValue`` with positioned errors.
///
/// Bytes that are not UTF-8 are refused with their offset in both modes. ``Mode/strict``
/// (config files, aggr's own formats) also refuses duplicate object keys, because in a
/// config file the second one silently winning is a bug the user cannot see, and `\u`
/// escapes of lone surrogates. ``Mode/upstream`` (other people's servers) lets the last of
/// duplicate keys win and reads a lone surrogate as U+FFFD, as browsers do.
public struct JSONParser {
    /// How forgiving the parser is.
    public enum Mode: Sendable {
        case strict, upstream
    }

    private let bytes: [UInt8]
    private let mode: Mode
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 256

    /// Parses one complete JSON document.
    public static func parse(_ text: String, mode: Mode = .strict) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8), mode: mode)
    }

    /// Parses one complete JSON document from UTF-8 bytes.
    public static func parse(bytes: [UInt8], mode: Mode = .strict) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, mode: mode)
        parser.skipWhitespace()
        if parser.index == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("unexpected text after the end of the document")
        }
        return value
    }

    private init(bytes: [UInt8], mode: Mode) {
        self.bytes = bytes
        self.mode = mode
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<end where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw error("expected a value but found end of file") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value but found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let start = index
        for expected in literal.utf8 {
            guard current == expected else {
                throw error("invalid literal; expected \(literal)", at: start)
            }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var members: [JSONMember] = []
        var seen: Set<String>?
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([])
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes but found \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            // Small objects (nearly all) compare keys in place; a set pays off past a few dozen.
            let duplicate: Bool
            if members.count < 24 {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                duplicate = !seen!.insert(key).inserted
            }
            if duplicate, mode == .strict {
                throw error("duplicate key \"\(key)\"", at: keyStart)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("expected ':' after member name but found \(describeCurrent())")
            }
            index += 1
            let value = try parseValue()
            if duplicate, let existing = members.lastIndex(where: { $0.key == key }) {
                members[existing].value = value
            } else {
                members.append(JSONMember(key, value))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if current == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default:
                throw error("expected ',' or '}' after object member but found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if current == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' after array element but found \(describeCurrent())")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current, byte >= 0x30 && byte <= 0x39 {
                parser.index += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw error("invalid number", at: start)
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("invalid number: digits expected in exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = JSONNumber(literal: text) else { throw error("invalid number", at: start) }
        return .number(value)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var runStart = index
        var runIsASCII = true
        // Built as UTF-8 bytes and decoded once: the common string (no escape) is a single
        // copy of its bytes.
        var utf8: [UInt8] = []
        func checkRun(_ parser: JSONParser, from: Int, ascii: Bool) throws(JSONSyntaxError) {
            if !ascii, let bad = parser.bytes[from..<parser.index].withUnsafeBufferPointer(UTF8Validation.firstInvalidOffset) {
                let offset = from + bad
                throw parser.error("invalid UTF-8 (byte 0x\(String(parser.bytes[offset], radix: 16)) at byte offset \(offset))", at: offset)
            }
        }
        while true {
            guard let byte = current else { throw error("unterminated string", at: start) }
            if byte == UInt8(ascii: "\"") {
                try checkRun(self, from: runStart, ascii: runIsASCII)
                defer { index += 1 }
                if utf8.isEmpty { return String(decoding: bytes[runStart..<index], as: UTF8.self) }
                utf8 += bytes[runStart..<index]
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 { throw error("control character in string; escape it") }
            if byte != UInt8(ascii: "\\") {
                if byte >= 0x80 { runIsASCII = false }
                index += 1
                continue
            }
            try checkRun(self, from: runStart, ascii: runIsASCII)
            utf8 += bytes[runStart..<index]
            runIsASCII = true
            index += 1
            guard let escape = current else { throw error("unterminated string", at: start) }
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                let escapeStart = index - 2
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code), current == UInt8(ascii: "\\"),
                    index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        try loneSurrogate(at: escapeStart)
                        Self.append("\u{FFFD}", to: &utf8)
                        code = low
                    }
                }
                if Unicode.Scalar(code) == nil { try loneSurrogate(at: index - 6) }
                Self.append(Unicode.Scalar(code) ?? "\u{FFFD}", to: &utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'", at: index - 2)
            }
            runStart = index
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to utf8: inout [UInt8]) {
        UTF8.encode(scalar) { utf8.append($0) }
    }

    /// A `\u` escape of half a surrogate pair: an error when strict, U+FFFD upstream.
    private func loneSurrogate(at position: Int) throws(JSONSyntaxError) {
        if mode == .strict {
            throw error("\\u escape of a lone surrogate (half of a UTF-16 pair) at byte offset \(position)", at: position)
        }
    }
}
