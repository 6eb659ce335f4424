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
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// Parses RFC 3339 timestamps (`Z` or `±hh:mm`, optional fraction) and plain dates
    /// (`2026-11-01`, taken as UTC midnight).
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: trimmed) { return date }
        plain.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = plain.date(from: trimmed) { return date }
        plain.formatOptions = [.withFullDate]
        if trimmed.count == 10, let date = plain.date(from: trimmed) { return date }
        return nil
    }
}
