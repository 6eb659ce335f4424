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
                    header[String(field[..<colon]).trimmed] = String(field[field.index(after: colon)...]).trimmed
                }
                return
            }
            entries.append(current)
        }

        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.trimmed
            // Obsolete entries (`#~`) are comments to msgfmt, as every other `#` line but flags.
            if line.isEmpty || line.hasPrefix("#") {
                if line.hasPrefix("#,") {
                    for flag in line.dropFirst(2).split(separator: ",") { pendingFlags.insert(flag.trimmed) }
                }
                continue
            }
            let fail = { (reason: String) in SyntaxError(file: file, line: number, reason: reason) }
            if line.hasPrefix("\"") {
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
            let keyword = String(line.prefix { !$0.isWhitespace })
            let rest = String(line.dropFirst(keyword.count)).trimmed
            guard rest.hasPrefix("\"") else { throw fail("\(keyword) needs a quoted string") }
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
    static func unquote(_ quoted: String, _ fail: (String) -> SyntaxError) throws(SyntaxError) -> String {
        let scalars = Array(quoted.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { throw fail("an unterminated string") }
        var output = String.UnicodeScalarView()
        var index = 1
        while index < scalars.count - 1 {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { throw fail("a quote inside a string must be written \\\"") }
            guard scalar == "\\" else {
                output.append(scalar)
                continue
            }
            guard index < scalars.count - 1 else { throw fail("a string ends in a backslash") }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "n": output.append("\n")
            case "t": output.append("\t")
            case "r": output.append("\r")
            case "a": output.append("\u{07}")
            case "b": output.append("\u{08}")
            case "f": output.append("\u{0C}")
            case "v": output.append("\u{0B}")
            case "\\", "\"", "'", "?": output.append(escaped)
            default: throw fail("unknown escape \\\(escaped)")
            }
        }
        return String(output)
    }
}

extension StringProtocol {
    fileprivate var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
