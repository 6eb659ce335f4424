import Foundation

/// Upstream refused because the budget is spent; no request should be made before `until`.
public struct RateLimitedError: Error, Sendable, CustomStringConvertible {
    public var url: String
    public var until: Date
    /// What the refusal's body said (`{"message": …}` or the page's text), when it said anything.
    public var message: String?

    public init(url: String, until: Date, message: String? = nil) {
        self.url = url
        self.until = until
        self.message = message
    }

    public var description: String {
        localized("rate limited by \(url) until \(ISOTimestamp.format(until))") + (message.map { ": \($0)" } ?? "")
    }
}
