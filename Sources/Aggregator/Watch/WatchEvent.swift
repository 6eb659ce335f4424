import Foundation

/// What `aggr watch` reports as it runs, for a live status line or a log.
public enum WatchEvent: Sendable {
    /// providers.json changed and was loaded.
    case configReloaded(Configuration)
    /// providers.json changed but does not load; the last good config keeps running.
    case configRejected(message: String)
    /// A pass starts refreshing these providers.
    case passStarted(providers: [String])
    case passFinished(RefreshSummary)
    /// A rule matched new items; its digest is being sent.
    case matched(rule: String, count: Int)
    case delivered(NotificationDelivery)
    /// A daily check-in (`"checkin": true`) was claimed, or found claimed already.
    case checkedIn(provider: String, message: String, streak: Int?)
    /// Something failed outside any provider (the database); the watch goes on.
    case problem(String)
    /// Nothing is due before `until`, when `provider` is (nil: no provider is enabled).
    case waiting(until: Date?, provider: String?)
}
