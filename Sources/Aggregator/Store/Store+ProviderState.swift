import Foundation
internal import GRDB

extension Store {
    /// Every provider's state, by provider id.
    public func providerStates() throws -> [String: ProviderState] {
        try read { db in try Self.providerStates(in: db) }
    }

    static func providerStates(in db: Database) throws -> [String: ProviderState] {
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

    /// Replaces the stored state of `state.provider`.
    public func saveProviderState(_ state: ProviderState) throws {
        try write { db in try Self.saveProviderState(state, in: db) }
    }

    static func saveProviderState(_ state: ProviderState, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO provider_state
                    (provider, last_attempt, last_success, last_error, consecutive_failures, next_allowed_fetch, wait_reason)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            state.provider, state.lastAttempt.map(Self.millis), state.lastSuccess.map(Self.millis),
            state.lastError.map(SecretRedactor.redactURLs(in:)), state.consecutiveFailures, state.nextAllowedFetch.map(Self.millis),
            state.waitReason?.rawValue,
        ])
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
            // Asked once per fetch of a refresh: prepared once per connection.
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT etag, last_modified, body_hash FROM http_validator WHERE provider = ? AND url = ?"),
                arguments: [provider, url]
            )
            .map { HTTPValidators(etag: $0[0], lastModified: $0[1], bodyHash: $0[2]) }
        }
    }

    /// Every validator stored for `providers`, by provider and then URL.
    public func validators(of providers: Set<String>) throws -> [String: [String: HTTPValidators]]? {
        try read { db in
            var found: [String: [String: HTTPValidators]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT provider, url, etag, last_modified, body_hash FROM http_validator")
            while let row = try rows.next() {
                let provider: String = row[0]
                guard providers.contains(provider) else { continue }
                found[provider, default: [:]][row[1]] = HTTPValidators(etag: row[2], lastModified: row[3], bodyHash: row[4])
            }
            return found
        }
    }

    /// Remembers `provider`'s validators for `url`; call only when the body changed.
    public func saveValidators(_ validators: HTTPValidators, for url: String, provider: String, now: Date = Date()) throws {
        try write { db in try Self.saveValidators(validators, for: url, provider: provider, now: now, in: db) }
    }

    static func saveValidators(_ validators: HTTPValidators, for url: String, provider: String, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO http_validator (provider, url, etag, last_modified, body_hash, stored_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [provider, url, validators.etag, validators.lastModified, validators.bodyHash, millis(now)])
    }
}
