import Foundation

/// Milliseconds since 1970: the unit stored dates and timeline cursors use.
public enum EpochMillis {
    /// `date` in milliseconds; dates past what 64-bit milliseconds hold (a filter's
    /// `age < 99999999999d`) are clamped.
    public static func of(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return value > 0 ? .max : .min }
        return Int64(exactly: value) ?? (value > 0 ? .max : .min)
    }

    /// The moment `millis` names.
    public static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
