import Foundation

/// The state of one provider×section fetch: conditional-GET validators looked up and
/// staged, and the rate-limit signals seen.
///
/// Validators are only staged here; the refresher saves them with the items in one
/// transaction, so a fetch whose items were not stored is fetched in full next time.
public final class FetchSession: @unchecked Sendable {
    // Invariant: `staged` and `signal` are only touched while holding `lock`.
    private let memory: (any FetchMemory)?
    private let provider: String
    private let lock = NSLock()
    private var staged: [String: HTTPValidators] = [:]
    private var signal = RateLimitSignal()

    /// The budget this fetch shares with providers using the same API and token.
    let budget: SharedRateBudget?

    /// A session reading `provider`'s validators from `memory` (nil: always fetch in full).
    public init(memory: (any FetchMemory)?, provider: String = "", budget: SharedRateBudget? = nil) {
        self.memory = memory
        self.provider = provider
        self.budget = budget
    }

    func storedValidators(for key: String) -> HTTPValidators? {
        (try? memory?.validators(for: key, provider: provider)) ?? nil
    }

    func stage(_ validators: HTTPValidators, for key: String) {
        lock.withLock { staged[key] = validators }
    }

    /// Whether the store already holds item `id` of `provider` (for extra per-item requests
    /// that only new items deserve).
    public func isStored(provider: String, id: String) -> Bool {
        (try? memory?.holdsItem(provider: provider, id: id)) ?? false
    }

    /// Validators of bodies that changed, to save with the items.
    public var stagedValidators: [String: HTTPValidators] { lock.withLock { staged } }

    func observe(_ new: RateLimitSignal) {
        budget?.observe(new)
        lock.withLock {
            if let remaining = new.remaining { signal.remaining = min(signal.remaining ?? .max, remaining) }
            for (keyPath, value) in [(\RateLimitSignal.reset, new.reset), (\.retryAfter, new.retryAfter), (\.pollAfter, new.pollAfter)] {
                if let value { signal[keyPath: keyPath] = max(signal[keyPath: keyPath] ?? value, value) }
            }
        }
    }

    /// The combined rate-limit signal of every response in this fetch.
    public var rateLimit: RateLimitSignal { lock.withLock { signal } }
}
