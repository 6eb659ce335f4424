import Foundation

/// Ages in the current language: short ones for the timeline's time column (`now`, `5m`, `3h`,
/// `2d`, `Nov 3`, `2019-06-29`; `刚刚`, `5分钟`, `11月3日`), four-cell ones for narrow columns,
/// spoken ones for detail views (`3 hours ago`, `yesterday`; `3 小时前`, `昨天`).
public enum RelativeTime {
    /// How long before `now` `date` was: at most six columns this year, ten for older dates.
    public static func short(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return seconds < -60 ? localized("soon", context: "age") : localized("now", context: "age") }
        if seconds < 3_600 { return localized("\(seconds / 60)m", context: "age") }
        if seconds < 86_400 { return localized("\(seconds / 3_600)h", context: "age") }
        if seconds < 7 * 86_400 { return localized("\(seconds / 86_400)d", context: "age") }
        let parts = ISOTimestamp.components(date)
        let nowParts = ISOTimestamp.components(now)
        if parts.year == nowParts.year || seconds < 180 * 86_400 {
            return localized("\(monthName(parts.month)) \(parts.day)", context: "month and day")
        }
        // The whole date: a month alone would hide which day, and cutting it loses the year.
        return String(ISOTimestamp.format(date).prefix(10))
    }

    /// A month's short name (`Nov`; `11月`).
    static func monthName(_ month: Int) -> String {
        switch month {
        case 1: return localized("Jan", context: "month")
        case 2: return localized("Feb", context: "month")
        case 3: return localized("Mar", context: "month")
        case 4: return localized("Apr", context: "month")
        case 5: return localized("May", context: "month")
        case 6: return localized("Jun", context: "month")
        case 7: return localized("Jul", context: "month")
        case 8: return localized("Aug", context: "month")
        case 9: return localized("Sep", context: "month")
        case 10: return localized("Oct", context: "month")
        case 11: return localized("Nov", context: "month")
        default: return localized("Dec", context: "month")
        }
    }

    /// An age in at most four cells, for narrow columns: `now`, `5m`, `3h`, `2d`, `3w`, `5mo`, `2y`.
    public static func compact(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return seconds < -60 ? localized("soon", context: "age") : localized("now", context: "age") }
        // The largest unit that fits: weeks stop at 4 because a month starts at 30 days.
        let count: (Int) -> Int = { seconds / $0 }
        if seconds >= 86_400 * 365 { return localized("\(count(86_400 * 365))y", context: "narrow age") }
        if seconds >= 86_400 * 30 { return localized("\(count(86_400 * 30))mo", context: "narrow age") }
        if seconds >= 86_400 * 7 { return localized("\(count(86_400 * 7))w", context: "narrow age") }
        if seconds >= 86_400 { return localized("\(count(86_400))d", context: "narrow age") }
        if seconds >= 3_600 { return localized("\(count(3_600))h", context: "narrow age") }
        return localized("\(count(60))m", context: "narrow age")
    }

    /// A spoken age for detail views: "3 hours ago", "yesterday".
    public static func long(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 0 { return localized("in the future") }
        if seconds < 60 { return localized("just now") }
        if seconds < 3_600 {
            let n = seconds / 60
            return localized("\(n) minute ago", plural: "\(n) minutes ago", count: n)
        }
        if seconds < 86_400 {
            let n = seconds / 3_600
            return localized("\(n) hour ago", plural: "\(n) hours ago", count: n)
        }
        if seconds < 2 * 86_400 { return localized("yesterday") }
        if seconds < 7 * 86_400 {
            let n = seconds / 86_400
            return localized("\(n) day ago", plural: "\(n) days ago", count: n)
        }
        if seconds < 30 * 86_400 {
            let n = seconds / (7 * 86_400)
            return localized("\(n) week ago", plural: "\(n) weeks ago", count: n)
        }
        if seconds < 365 * 86_400 {
            let n = seconds / (30 * 86_400)
            return localized("\(n) month ago", plural: "\(n) months ago", count: n)
        }
        let n = seconds / (365 * 86_400)
        return localized("\(n) year ago", plural: "\(n) years ago", count: n)
    }
}
