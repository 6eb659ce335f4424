import Foundation

/// A provider's last daily check-in: the site's day it was claimed for, and the streak the
/// site reported.
public struct CheckinRecord: Sendable, Equatable {
    /// The day on the site's calendar, `yyyy-MM-dd`.
    public var day: String
    /// Consecutive days, when the site said.
    public var streak: Int?
    public var at: Date

    public init(day: String, streak: Int?, at: Date) {
        self.day = day
        self.streak = streak
        self.at = at
    }
}
