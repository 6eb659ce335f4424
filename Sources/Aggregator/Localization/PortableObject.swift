/// A gettext catalog (`.po` file) as written by translators: its entries and header.
///
/// Reads what msgfmt reads: `msgctxt`, `msgid`, `msgid_plural`, `msgstr` and `msgstr[N]`,
/// strings continued over several lines, C escapes, comments; fuzzy and obsolete (`#~`)
/// entries are kept out, as msgfmt keeps them out of a compiled catalog.
public struct PortableObject: Sendable, Equatable {
    /// One message: its key (context and id), the plural id and the translations.
    public struct Entry: Sendable, Equatable {
        public var context: String?
        public var id: String
        public var pluralID: String?
        /// One translation, or one per plural form in the order of the plural rule.
        public var translations: [String]
        /// `#,` flags such as `c-format`.
        public var flags: Set<String>
        /// The line the entry starts on, for messages about it.
        public var line: Int
    }

    /// A line of a catalog that is not gettext's syntax.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    /// The entries in file order, the header (`msgid ""`) left out.
    public var entries: [Entry]
    /// The header's `Name: value` fields (`Language`, `Plural-Forms`, …).
    public var header: [String: String]

    /// Parses `text`, naming `file` in errors.
    public init(parsing text: String, file: String = "catalog.po") throws(SyntaxError) {
        var entries: [Entry] = []
        var current = Entry(context: nil, id: "", pluralID: nil, translations: [], flags: [], line: 0)
        var started = false
        var hasID = false
        /// Where continuation lines go: 0 context, 1 id, 2 plural id, 3+ translation index + 3.
        var target = -1
        var pendingFlags: Set<String> = []
        var header: [String: String] = [:]

        func finish() {
            guard started else { return }
            defer {
                started = false
                hasID = false
                target = -1
                current = Entry(context: nil, id: "", pluralID: nil, translations: [], flags: [], line: 0)
            }
            if current.flags.contains("fuzzy") { return }
            if current.id.isEmpty && current.context == nil {
                for field in (current.translations.first ?? "").split(separator: "\n") {
                    guard let colon = field.firstIndex(of: ":") else { continue }
                    header[field[..<colon].trimmingWhitespace()] = field[field.index(after: colon)...].trimmingWhitespace()
                }
                return
            }
            entries.append(current)
        }

        // Bytes, not Characters: a catalog is read at every start of every command, and a
        // byte walk reads a thousand messages in well under a millisecond.
        let bytes = Array(text.utf8)
        var number = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            number += 1
            let line = Self.trimmed(bytes[lineStart..<lineEnd])
            // Obsolete entries (`#~`) are comments to msgfmt, as every other `#` line but flags.
            if line.isEmpty || line.first == UInt8(ascii: "#") {
                if line.count > 1, line[line.startIndex + 1] == UInt8(ascii: ",") {
                    for flag in String(decoding: line.dropFirst(2), as: UTF8.self).split(separator: ",") {
                        pendingFlags.insert(flag.trimmingWhitespace())
                    }
                }
                continue
            }
            let fail = { (reason: String) in SyntaxError(file: file, line: number, reason: reason) }
            if line.first == UInt8(ascii: "\"") {
                guard target >= 0 else { throw fail("a string continues nothing") }
                let value = try Self.unquote(line, fail)
                switch target {
                case 0: current.context! += value
                case 1: current.id += value
                case 2: current.pluralID! += value
                default: current.translations[target - 3] += value
                }
                continue
            }
            let keywordBytes = line.prefix { $0 != 0x20 && $0 != 0x09 }
            let keyword = String(decoding: keywordBytes, as: UTF8.self)
            let rest = Self.trimmed(line[keywordBytes.endIndex...])
            guard rest.first == UInt8(ascii: "\"") else { throw fail("\(keyword) needs a quoted string") }
            let value = try Self.unquote(rest, fail)
            switch keyword {
            case "msgctxt":
                finish()
                started = true
                current.line = number
                current.context = value
                current.flags = pendingFlags
                pendingFlags = []
                target = 0
            case "msgid":
                if hasID { finish() }
                if !started {
                    current.line = number
                    current.flags = pendingFlags
                    pendingFlags = []
                }
                started = true
                hasID = true
                current.id = value
                target = 1
            case "msgid_plural":
                guard hasID, current.pluralID == nil else { throw fail("msgid_plural without its msgid") }
                current.pluralID = value
                target = 2
            case "msgstr":
                guard hasID, current.translations.isEmpty else { throw fail("msgstr without its msgid") }
                current.translations = [value]
                target = 3
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                    let index = Int(keyword.dropFirst(7).dropLast()), hasID, current.pluralID != nil
                else { throw fail("unknown keyword \(keyword)") }
                guard index == current.translations.count else { throw fail("\(keyword) out of order") }
                current.translations.append(value)
                target = 3 + index
            }
        }
        finish()
        for entry in entries where entry.translations.isEmpty {
            throw SyntaxError(file: file, line: entry.line, reason: "msgid \"\(entry.id)\" has no msgstr")
        }
        self.entries = entries
        self.header = header
    }

    /// The text of a quoted .po string, C escapes decoded.
    static func unquote(_ quoted: ArraySlice<UInt8>, _ fail: (String) -> SyntaxError) throws(SyntaxError) -> String {
        guard quoted.count >= 2, quoted.first == UInt8(ascii: "\""), quoted.last == UInt8(ascii: "\"") else {
            throw fail("an unterminated string")
        }
        let body = quoted.dropFirst().dropLast()
        guard body.contains(where: { $0 == 0x5C || $0 == 0x22 }) else { return String(decoding: body, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            index += 1
            if byte == UInt8(ascii: "\"") { throw fail("a quote inside a string must be written \\\"") }
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                continue
            }
            guard index < body.endIndex else { throw fail("a string ends in a backslash") }
            let escaped = body[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "a"): output.append(0x07)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "v"): output.append(0x0B)
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "?"): output.append(escaped)
            default: throw fail("unknown escape \\\(String(decoding: [escaped], as: UTF8.self))")
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `line` without the ASCII spaces, tabs and carriage returns around it.
    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = line
        while let first = slice.first, first == 0x20 || first == 0x09 || first == 0x0D { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 || last == 0x0D { slice.removeLast() }
        return slice
    }
}
