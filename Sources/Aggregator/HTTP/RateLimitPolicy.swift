import Foundation

/// What an upstream's headers say about when to ask again.
public struct RateLimitSignal: Sendable, Equatable {
    /// Requests left in the current window, when the server says.
    public var remaining: Int?
    /// When the window resets.
    public var reset: Date?
    /// `Retry-After` as a moment.
    public var retryAfter: Date?
    /// GitHub's `X-Poll-Interval`: the earliest next poll.
    public var pollAfter: Date?

    public init(remaining: Int? = nil, reset: Date? = nil, retryAfter: Date? = nil, pollAfter: Date? = nil) {
        self.remaining = remaining
        self.reset = reset
        self.retryAfter = retryAfter
        self.pollAfter = pollAfter
    }

    /// The moment before which no request should be made, if the budget is spent.
    public var blockedUntil: Date? {
        var moments = [retryAfter].compactMap { $0 }
        if remaining == 0, let reset { moments.append(reset) }
        return moments.max()
    }
}

/// Reads rate-limit headers: `Retry-After` (seconds or HTTP date), `X-RateLimit-*`
/// (GitHub, Gitee, Dribbble), `X-Rate-Limit-*` (V2EX) and `X-Poll-Interval`.
public enum RateLimitPolicy {
    /// The signal in `response`, resolving relative values against `now`.
    public static func signal(from response: HTTPResponse, now: Date) -> RateLimitSignal {
        var signal = RateLimitSignal()
        let remaining = response.header("X-RateLimit-Remaining") ?? response.header("X-Rate-Limit-Remaining")
        signal.remaining = remaining.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let reset = response.header("X-RateLimit-Reset") ?? response.header("X-Rate-Limit-Reset"),
            let value = Double(reset.trimmingCharacters(in: .whitespaces))
        {
            // Epoch seconds everywhere it is documented; small values are seconds from now.
            signal.reset = value > 1_000_000_000 ? Date(timeIntervalSince1970: value) : now.addingTimeInterval(value)
        }
        if let retry = response.header("Retry-After") {
            signal.retryAfter = retryAfter(retry, now: now)
        }
        if let poll = response.header("X-Poll-Interval").flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) {
            signal.pollAfter = now.addingTimeInterval(poll)
        }
        return signal
    }

    /// `Retry-After` as a moment: delta-seconds or an HTTP date.
    static func retryAfter(_ text: String, now: Date) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return now.addingTimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}

/// How long to wait after failures in a row: doubling from one minute, capped at six
/// hours, with ±20% jitter so many clients do not return at the same moment.
public struct BackoffPolicy: Sendable {
    public var base: TimeInterval = 60
    public var cap: TimeInterval = 6 * 3_600

    public init() {}

    /// The wait after the `failures`-th failure in a row; `jitter` is in 0...1.
    public func delay(afterFailures failures: Int, jitter: Double) -> TimeInterval {
        let exponent = Double(max(0, min(failures - 1, 20)))
        let raw = min(cap, base * pow(2, exponent))
        return raw * (0.8 + 0.4 * min(1, max(0, jitter)))
    }
}
