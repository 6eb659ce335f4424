import Foundation

/// Short ages for the timeline's time column: `now`, `5m`, `3h`, `2d`, `Nov 3`, `2019-06-29`.
public enum RelativeTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// How long before `now` `date` was: at most six columns this year, ten for older dates.
    public static func short(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return seconds < -60 ? "soon" : "now" }
        if seconds < 3_600 { return "\(seconds / 60)m" }
        if seconds < 86_400 { return "\(seconds / 3_600)h" }
        if seconds < 7 * 86_400 { return "\(seconds / 86_400)d" }
        let parts = ISOTimestamp.components(date)
        let nowParts = ISOTimestamp.components(now)
        if parts.year == nowParts.year || seconds < 180 * 86_400 {
            return "\(months[parts.month - 1]) \(parts.day)"
        }
        // The whole date: a month alone would hide which day, and cutting it loses the year.
        return String(ISOTimestamp.format(date).prefix(10))
    }

    /// An age in at most four cells, for narrow columns: `now`, `5m`, `3h`, `2d`, `3w`, `5mo`, `2y`.
    public static func compact(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return seconds < -60 ? "soon" : "now" }
        let units: [(Int, String)] = [
            (86_400 * 365, "y"), (86_400 * 30, "mo"), (86_400 * 7, "w"), (86_400, "d"), (3_600, "h"), (60, "m"),
        ]
        // The largest unit that fits: weeks stop at 4 because a month starts at 30 days.
        for (size, name) in units where seconds >= size { return "\(seconds / size)\(name)" }
        return "now"
    }

    /// A spoken age for detail views: "3 hours ago".
    public static func long(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 0 { return "in the future" }
        if seconds < 60 { return "just now" }
        let units: [(Int, String)] = [
            (86_400 * 365, "year"), (86_400 * 30, "month"), (86_400 * 7, "week"), (86_400, "day"), (3_600, "hour"), (60, "minute"),
        ]
        for (size, name) in units where seconds >= size {
            let count = seconds / size
            return "\(count) \(name)\(count == 1 ? "" : "s") ago"
        }
        return "just now"
    }
}
