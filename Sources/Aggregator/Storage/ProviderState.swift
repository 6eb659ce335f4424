import Foundation

/// What the store remembers about a provider's fetches.
public struct ProviderState: Sendable, Equatable {
    public var provider: String
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    /// The last failure's message (secrets already redacted), cleared by a success.
    public var lastError: String?
    public var consecutiveFailures = 0
    /// Set by backoff, rate limits and intervals: no fetch before this time (see ``waitReason``).
    public var nextAllowedFetch: Date?
    /// Why ``nextAllowedFetch`` is set; `--force` overrides intervals and backoff, never rate limits.
    public var waitReason: WaitReason?

    public init(provider: String) {
        self.provider = provider
    }

    /// When the provider may be fetched again with `interval` as its interval now.
    ///
    /// A wait for the interval ends at the last success plus the current interval, so a
    /// shorter `interval` in providers.json takes effect at once instead of after the old
    /// deadline; backoff and rate limits are kept as they were set.
    public func nextFetch(interval: TimeSpan?) -> Date? {
        guard (waitReason ?? .interval) == .interval, let next = nextAllowedFetch, let interval, let last = lastSuccess else {
            return nextAllowedFetch
        }
        return min(next, last.addingTimeInterval(Double(interval.seconds)))
    }
}

/// Why a provider may not be fetched yet.
public enum WaitReason: String, Sendable, Equatable {
    /// Its `interval` has not passed since the last success.
    case interval
    /// It failed recently; the wait grows with each failure in a row.
    case backoff
    /// Upstream said the budget is spent (rate-limit headers, Retry-After, X-Poll-Interval).
    case rateLimit = "rate-limit"
}
