import Foundation

/// Parses the dates upstream sites print: RFC 822/1123 (named zones too), ISO 8601 /
/// RFC 3339 (fractions, `+08:00` offsets, a space instead of `T`), Unix seconds or
/// milliseconds, and the relative forms of forum pages ("3 分钟前", "2 小时 5 分钟前",
/// "几秒前", "昨天", "5 days ago"), which resolve against `reference` (the response's Date).
public enum UpstreamDate {
    /// The moment `text` names, or nil when it is no date this parser knows.
    public static func parse(_ text: String, relativeTo reference: Date = Date()) -> Date? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if let date = unix(trimmed) ?? iso8601(trimmed) ?? rfc822(trimmed) { return date }
        return relative(trimmed, reference: reference)
    }

    // MARK: Unix time

    static func unix(_ text: String) -> Date? {
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(text) else { return nil }
        let digits = text.split(separator: ".")[0].count
        switch digits {
        case 9...10: return Date(timeIntervalSince1970: value)
        case 12...13: return Date(timeIntervalSince1970: value / 1000)
        default: return nil
        }
    }

    // MARK: ISO 8601

    static func iso8601(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        guard let year = scanner.number(digits: 4), scanner.take("-"), let month = scanner.number(digits: 2), scanner.take("-"),
            let day = scanner.number(digits: 2)
        else { return nil }
        var seconds = 0.0
        var hour = 0
        var minute = 0
        if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
            guard let h = scanner.number(digits: 2), scanner.take(":"), let m = scanner.number(digits: 2) else { return nil }
            (hour, minute) = (h, m)
            if scanner.take(":") {
                guard let s = scanner.number(digits: 2) else { return nil }
                seconds = Double(s)
                if scanner.take(".") || scanner.take(",") { seconds += scanner.fraction() }
            }
        }
        _ = scanner.take(" ")
        var offset = 0
        if !scanner.atEnd {
            guard let parsed = scanner.zone() else { return nil }
            offset = parsed
        }
        guard scanner.atEnd else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, seconds: seconds, offset: offset)
    }

    // MARK: RFC 822 / 1123 / 2822

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func rfc822(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        return bytes.allSatisfy { $0 < 0x80 } ? rfc822(ascii: bytes) : rfc822(characters: text)
    }

    /// ``rfc822(characters:)`` for ASCII text, by bytes: the same answer for every such text,
    /// without a `String` per word (a feed's dates are most of its parse).
    static func rfc822(ascii bytes: [UInt8]) -> Date? {
        var words: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") {
                if let first = start { words.append(first..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let first = start { words.append(first..<bytes.count) }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        if let first = words.first, first.count >= 3, bytes[first].allSatisfy(isLetter) { words.removeFirst() }  // weekday
        guard words.count >= 4, let day = integer(bytes[words[0]]) else { return nil }
        let month = bytes[words[1]].prefix(3).map { isLetter($0) ? $0 | 0x20 : $0 }
        guard let monthIndex = monthBytes.firstIndex(of: month), var year = integer(bytes[words[2]]) else { return nil }
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = bytes[words[3]].split(separator: UInt8(ascii: ":")).compactMap(integer)
        guard time.count >= 2 else { return nil }
        var offset = 0
        if words.count >= 5 {
            var scanner = DateScanner(bytes: bytes[words[4]])
            guard let zone = scanner.zone(), scanner.atEnd else { return nil }
            offset = zone
        }
        return make(
            year: year, month: monthIndex + 1, day: day, hour: time[0], minute: time[1], seconds: Double(time.count > 2 ? time[2] : 0),
            offset: offset)
    }

    private static let monthBytes = months.map { Array($0.utf8) }

    /// What `Int(String(decoding: digits, as: UTF8.self))` gives: an optional sign, then
    /// decimal digits only, nil on overflow.
    static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        var rest = digits
        let negative = rest.first == UInt8(ascii: "-")
        if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        var value = 0
        for byte in rest {
            guard DateScanner.isDigit(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) =
                negative
                ? shifted.subtractingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                : shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }

    static func rfc822(characters text: String) -> Date? {
        var words = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        if let first = words.first, first.count >= 3, first.allSatisfy(\.isLetter) { words.removeFirst() }  // weekday
        guard words.count >= 4, let day = Int(words[0]),
            let monthIndex = months.firstIndex(of: String(words[1].prefix(3)).lowercased()), var year = Int(words[2])
        else { return nil }
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = words[3].split(separator: ":").compactMap { Int($0) }
        guard time.count >= 2 else { return nil }
        var offset = 0
        if words.count >= 5 {
            var scanner = DateScanner(words[4])
            guard let zone = scanner.zone(), scanner.atEnd else { return nil }
            offset = zone
        }
        return make(
            year: year, month: monthIndex + 1, day: day, hour: time[0], minute: time[1], seconds: Double(time.count > 2 ? time[2] : 0),
            offset: offset)
    }

    // MARK: Relative forms

    /// Units by the words that name them, in seconds.
    private static let units: [(words: [String], seconds: Double)] = [
        (["秒", "second", "seconds", "sec", "secs", "s"], 1),
        (["分钟", "分", "minute", "minutes", "min", "mins", "m"], 60),
        (["小时", "时", "hour", "hours", "hr", "hrs", "h"], 3_600),
        (["天", "日", "day", "days", "d"], 86_400),
        (["周", "星期", "week", "weeks", "w"], 604_800),
        (["个月", "月", "month", "months"], 2_592_000),
        (["年", "year", "years", "y"], 31_536_000),
    ]

    static func relative(_ text: String, reference: Date) -> Date? {
        let lowered = text.lowercased()
        switch lowered {
        // verbatim: upstream text this parser recognises, not a message
        case "刚刚", "几秒前", "just now", "now", "moments ago", "a few seconds ago": return reference
        case "昨天", "yesterday": return reference.addingTimeInterval(-86_400)
        case "前天": return reference.addingTimeInterval(-172_800)
        default: break
        }
        guard lowered.hasSuffix("前") || lowered.hasSuffix("ago") else { return nil }
        var body = lowered
        body = body.hasSuffix("前") ? String(body.dropLast()) : String(body.dropLast(3))
        body = body.replacingOccurrences(of: "an ", with: "1 ").replacingOccurrences(of: "a ", with: "1 ")
        // Split into number/unit tokens: "2 小时 5 分钟", "2小时5分钟", "3 days".
        var tokens: [String] = []
        var currentToken = ""
        var currentIsDigit: Bool?
        for character in body where !character.isWhitespace && character != "," {
            let isDigit = character.isASCII && character.isNumber
            if currentIsDigit != nil, currentIsDigit != isDigit {
                tokens.append(currentToken)
                currentToken = ""
            }
            currentToken.append(character)
            currentIsDigit = isDigit
        }
        if !currentToken.isEmpty { tokens.append(currentToken) }
        guard tokens.count >= 2, tokens.count % 2 == 0 else { return nil }
        var total = 0.0
        for pair in stride(from: 0, to: tokens.count, by: 2) {
            guard let count = Double(tokens[pair]), let unit = units.first(where: { $0.words.contains(tokens[pair + 1]) }) else {
                return nil
            }
            total += count * unit.seconds
        }
        return reference.addingTimeInterval(-total)
    }

    // MARK: Construction

    /// A date from civil UTC fields and a zone offset in seconds east of UTC, without Calendar.
    static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, seconds: Double, offset: Int) -> Date? {
        // The year is bounded first: the day arithmetic below must not overflow on "99999999999999".
        guard (1...9_999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
            (0...59).contains(minute), (0..<61).contains(seconds)
        else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let total = Double(days * 86_400 + hour * 3_600 + minute * 60 - offset) + seconds
        return Date(timeIntervalSince1970: total)
    }
}

/// A cursor over ASCII date text (its UTF-8 bytes; anything else matches nothing).
struct DateScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }

    var atEnd: Bool { index >= bytes.count }

    /// Consumes `character` (ASCII) when it comes next.
    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard !atEnd, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + digits)] {
            guard Self.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    mutating func fraction() -> Double {
        let start = index
        while !atEnd, Self.isDigit(bytes[index]) { index += 1 }
        return Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
    }

    /// Named zones, in hours east of UTC (IST is India's, +5:30).
    static let namedZones: [String: Int] = [
        "z": 0, "gmt": 0, "ut": 0, "utc": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8,
        "pdt": -7, "cet": 1, "cest": 2, "bst": 1, "jst": 9, "kst": 9, "hkt": 8, "ist": 5,
    ]

    /// `Z`, `±HH:MM`, `±HHMM`, `±HH`, or a named zone; seconds east of UTC.
    mutating func zone() -> Int? {
        guard !atEnd else { return nil }
        let sign = bytes[index]
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            index += 1
            guard let hours = number(digits: 2) else { return nil }
            _ = take(":")
            let minutes = number(digits: 2) ?? 0
            let value = hours * 3_600 + minutes * 60
            return sign == UInt8(ascii: "-") ? -value : value
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self).lowercased()
        guard let hours = Self.namedZones[rest] else { return nil }
        index = bytes.count
        return hours * 3_600 + (rest == "ist" ? 1_800 : 0)
    }
}
