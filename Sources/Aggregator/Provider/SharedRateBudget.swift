import Foundation

/// One upstream rate-limit budget, shared by every provider of a type that uses the same
/// API and the same token (GitHub counts requests per token, not per provider entry).
public final class SharedRateBudget: @unchecked Sendable {
    // Invariant: `blocked` is only touched while holding `lock`.
    private let lock = NSLock()
    private var blocked: Date?

    public init() {}

    /// The moment requests may resume, if the budget is spent.
    public var blockedUntil: Date? { lock.withLock { blocked } }

    /// Records what a response said: a spent budget blocks every sharer until it resets.
    func observe(_ signal: RateLimitSignal) {
        guard let until = signal.blockedUntil else { return }
        lock.withLock { blocked = max(blocked ?? until, until) }
    }

    /// Blocks every sharer until `until` (another worker found the budget spent).
    func block(until: Date) {
        lock.withLock { blocked = max(blocked ?? until, until) }
    }

    /// The key that groups providers on one budget: type, API base and a hash of the token.
    static func key(type: String, apiURL: String?, token: String?) -> String {
        "\(type)|\(apiURL ?? "default")|\(token.map { BodyHash.hex(Array($0.utf8)) } ?? "anonymous")"
    }
}
