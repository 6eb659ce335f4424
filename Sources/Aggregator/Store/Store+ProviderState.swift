import Foundation
import GRDB

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

/// Stored item counts for one provider.
public struct ProviderItemCount: Sendable, Equatable {
    public var total: Int
    public var unread: Int

    public init(total: Int, unread: Int) {
        self.total = total
        self.unread = unread
    }
}

/// HTTP cache validators remembered for one URL, with a hash of the body they belong to.
public struct HTTPValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?
    /// Lets a 200 with the very same body count as unchanged, for servers without validators.
    public var bodyHash: String?

    public init(etag: String?, lastModified: String?, bodyHash: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.bodyHash = bodyHash
    }
}

extension Store {
    /// Every provider's state, by provider id.
    public func providerStates() throws -> [String: ProviderState] {
        try read { db in
            var states: [String: ProviderState] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM provider_state") {
                var state = ProviderState(provider: row["provider"])
                state.lastAttempt = (row["last_attempt"] as Int64?).map(Self.date)
                state.lastSuccess = (row["last_success"] as Int64?).map(Self.date)
                state.lastError = row["last_error"]
                state.consecutiveFailures = row["consecutive_failures"]
                state.nextAllowedFetch = (row["next_allowed_fetch"] as Int64?).map(Self.date)
                state.waitReason = (row["wait_reason"] as String?).flatMap(WaitReason.init(rawValue:))
                states[state.provider] = state
            }
            return states
        }
    }

    /// Replaces the stored state of `state.provider`.
    public func saveProviderState(_ state: ProviderState) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO provider_state
                        (provider, last_attempt, last_success, last_error, consecutive_failures, next_allowed_fetch, wait_reason)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    state.provider, state.lastAttempt.map(Self.millis), state.lastSuccess.map(Self.millis),
                    state.lastError.map(SecretRedactor.redactURLs(in:)), state.consecutiveFailures, state.nextAllowedFetch.map(Self.millis),
                    state.waitReason?.rawValue,
                ])
        }
    }

    /// Stored and unread item counts per provider id.
    public func itemCounts() throws -> [String: ProviderItemCount] {
        try read { db in
            var counts: [String: ProviderItemCount] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT provider, count(*), count(*) - count(read_at) FROM item GROUP BY provider") {
                counts[row[0]] = ProviderItemCount(total: row[1], unread: row[2])
            }
            return counts
        }
    }

    /// The validators `provider` stored for `url` (which must already be redacted of secrets).
    public func validators(for url: String, provider: String) throws -> HTTPValidators? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT etag, last_modified, body_hash FROM http_validator WHERE provider = ? AND url = ?",
                arguments: [provider, url]
            )
            .map { HTTPValidators(etag: $0[0], lastModified: $0[1], bodyHash: $0[2]) }
        }
    }

    /// Remembers `provider`'s validators for `url`; call only when the body changed.
    public func saveValidators(_ validators: HTTPValidators, for url: String, provider: String, now: Date = Date()) throws {
        try write { db in try Self.saveValidators(validators, for: url, provider: provider, now: now, in: db) }
    }

    static func saveValidators(_ validators: HTTPValidators, for url: String, provider: String, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO http_validator (provider, url, etag, last_modified, body_hash, stored_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [provider, url, validators.etag, validators.lastModified, validators.bodyHash, millis(now)])
    }
}
