import Foundation

/// ISO-8601 timestamps in UTC as the output contract writes them (`2026-11-21T04:31:13Z`).
public enum ISOTimestamp {
    /// Calendar fields of `date` in UTC.
    static func components(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var seconds = time_t(floor(date.timeIntervalSince1970))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)
        )
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ`.
    public static func format(_ date: Date) -> String {
        let c = components(date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = max(0, value)
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(c.year, c.year > 9_999 ? String(c.year).count : 4)
        bytes.append(UInt8(ascii: "-"))
        digits(c.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(c.day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(c.hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(c.minute, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(c.second, 2)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses RFC 3339 timestamps (`Z` or `±hh:mm`, optional fraction) and plain dates
    /// (`2026-11-01`, taken as UTC midnight).
    ///
    /// A byte scanner, not ISO8601DateFormatter: building a formatter per call cost most of
    /// the time of `aggr import`.
    public static func parse(_ text: String) -> Date? {
        UpstreamDate.iso8601(text.trimmingWhitespace())
    }
}
