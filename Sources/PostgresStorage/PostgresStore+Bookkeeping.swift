import Aggregator
import Foundation
import NIOCore
import PostgresNIO

/// Provider state, validators, notification marks, icons, secrets, retention and checks.
extension PostgresStore {
    public func providerStates() throws -> [String: ProviderState] {
        try read { session in try Self.providerStates(in: session) }
    }

    public func providerStates(of providers: [String], rateLimitedAfter now: Date) throws -> [String: ProviderState] {
        try read { session in
            try Self.providerStates(
                in: session,
                where: SQLFragment(
                    "provider = ANY(?) OR (wait_reason = ? AND next_allowed_fetch > ?)",
                    [.texts(providers), .text(WaitReason.rateLimit.rawValue), .integer(Self.millis(now))]))
        }
    }

    /// The states of the providers `condition` picks (all without one).
    static func providerStates(in session: PostgresSession, where condition: SQLFragment? = nil) throws -> [String: ProviderState] {
        var states: [String: ProviderState] = [:]
        for row in try session.rows(
            """
            SELECT provider, last_attempt, last_success, last_error, consecutive_failures, next_allowed_fetch, wait_reason
            FROM provider_state
            """ + (condition.map { " WHERE " + $0.sql } ?? ""), condition?.values ?? [])
        {
            var state = ProviderState(provider: try row.get(0, as: String.self) ?? "")
            state.lastAttempt = try row.get(1, as: Int64.self).map(date)
            state.lastSuccess = try row.get(2, as: Int64.self).map(date)
            state.lastError = try row.get(3, as: String.self)
            state.consecutiveFailures = Int(try row.get(4, as: Int64.self) ?? 0)
            state.nextAllowedFetch = try row.get(5, as: Int64.self).map(date)
            state.waitReason = try row.get(6, as: String.self).flatMap(WaitReason.init(rawValue:))
            states[state.provider] = state
        }
        return states
    }

    public func saveProviderState(_ state: ProviderState) throws {
        try write { session in try Self.saveProviderState(state, in: session) }
    }

    static func saveProviderState(_ state: ProviderState, in session: PostgresSession) throws {
        try session.execute(
            """
            INSERT INTO provider_state
                (provider, last_attempt, last_success, last_error, consecutive_failures, next_allowed_fetch, wait_reason)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (provider) DO UPDATE SET last_attempt = excluded.last_attempt, last_success = excluded.last_success,
                last_error = excluded.last_error, consecutive_failures = excluded.consecutive_failures,
                next_allowed_fetch = excluded.next_allowed_fetch, wait_reason = excluded.wait_reason
            """,
            [
                .text(state.provider), .integer(state.lastAttempt.map(millis)), .integer(state.lastSuccess.map(millis)),
                .text(state.lastError.map(SecretRedactor.redactURLs(in:))), .integer(Int64(state.consecutiveFailures)),
                .integer(state.nextAllowedFetch.map(millis)), .text(state.waitReason?.rawValue),
            ])
    }

    public func validators(for url: String, provider: String) throws -> HTTPValidators? {
        try read { session in
            try session.rows(
                "SELECT etag, last_modified, body_hash FROM http_validator WHERE provider = ? AND url = ?", [.text(provider), .text(url)]
            ).first.map {
                HTTPValidators(
                    etag: try $0.get(0, as: String.self), lastModified: try $0.get(1, as: String.self),
                    bodyHash: try $0.get(2, as: String.self))
            }
        }
    }

    public func saveValidators(_ validators: HTTPValidators, for url: String, provider: String, now: Date) throws {
        try write { session in try Self.saveValidators(validators, for: url, provider: provider, now: now, in: session) }
    }

    static func saveValidators(
        _ validators: HTTPValidators, for url: String, provider: String, now: Date, in session: PostgresSession
    ) throws {
        try session.execute(
            """
            INSERT INTO http_validator (provider, url, etag, last_modified, body_hash, stored_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (provider, url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                body_hash = excluded.body_hash, stored_at = excluded.stored_at
            """,
            [
                .text(provider), .text(url), .text(validators.etag), .text(validators.lastModified), .text(validators.bodyHash),
                .integer(millis(now)),
            ])
    }

    public func notificationMarks() throws -> [String: Int64] {
        try read { session in
            var marks: [String: Int64] = [:]
            for row in try session.rows("SELECT rule, last_ref FROM notify_mark WHERE user_id = \(userID)") {
                marks[try row.get(0, as: String.self) ?? ""] = try row.get(1, as: Int64.self) ?? 0
            }
            return marks
        }
    }

    public func setNotificationMark(rule name: String, ref: Int64, now: Date) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO notify_mark (user_id, rule, last_ref, created_at) VALUES (\(userID), ?, ?, ?)
                ON CONFLICT (user_id, rule) DO UPDATE SET last_ref = greatest(notify_mark.last_ref, excluded.last_ref)
                """, [.text(name), .integer(ref), .integer(Self.millis(now))])
        }
    }

    public func advanceNotificationMark(rule name: String, from: Int64, to: Int64) throws -> Bool {
        try write { session in
            try session.execute(
                "UPDATE notify_mark SET last_ref = ? WHERE user_id = \(userID) AND rule = ? AND last_ref = ?",
                [.integer(to), .text(name), .integer(from)]) == 1
        }
    }

    public func siteIcon(_ site: String) throws -> SiteIcon? {
        try read { session in
            try session.rows("SELECT site, content_type, data, fetched_at FROM site_icon WHERE site = ?", [.text(site)]).first.map(
                Self.icon(from:))
        }
    }

    public func siteIcons() throws -> [SiteIcon] {
        try read { session in
            try session.rows("SELECT site, content_type, data, fetched_at FROM site_icon WHERE data IS NOT NULL ORDER BY site").map(
                Self.icon(from:))
        }
    }

    public func saveSiteIcon(_ icon: SiteIcon) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO site_icon (site, content_type, data, fetched_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (site) DO UPDATE SET content_type = excluded.content_type, data = excluded.data, fetched_at = excluded.fetched_at
                """,
                [.text(icon.site), .text(icon.contentType), .bytes(icon.hasImage ? icon.data : nil), .integer(Self.millis(icon.fetchedAt))])
        }
    }

    private static func icon(from row: PostgresRandomAccessRow) throws -> SiteIcon {
        let data = try row.get(2, as: ByteBuffer.self).map { Array($0.readableBytesView) } ?? []
        return SiteIcon(
            site: try row.get(0, as: String.self) ?? "", contentType: try row.get(1, as: String.self), data: data,
            fetchedAt: date(try row.get(3, as: Int64.self) ?? 0))
    }

    public func installationSecret(_ purpose: String, now: Date) throws -> String {
        try write { session in
            // Two processes starting at once agree on the first one written.
            try session.execute(
                "INSERT INTO installation_secret (purpose, value, created_at) VALUES (?, ?, ?) ON CONFLICT (purpose) DO NOTHING",
                [.text(purpose), .text(RandomToken.hex()), .integer(Self.millis(now))])
            return try session.value(String.self, "SELECT value FROM installation_secret WHERE purpose = ?", [.text(purpose)]) ?? ""
        }
    }

    public func rotateInstallationSecret(_ purpose: String, now: Date) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO installation_secret (purpose, value, created_at) VALUES (?, ?, ?)
                ON CONFLICT (purpose) DO UPDATE SET value = excluded.value, created_at = excluded.created_at
                """, [.text(purpose), .text(RandomToken.hex()), .integer(Self.millis(now))])
        }
    }

    public func prune(_ policy: RetentionPolicy, now: Date) throws -> PruneResult {
        try write { session in
            var result = PruneResult()
            let removedAt = Self.millis(now)
            let forgetBefore = Self.millis(now.addingTimeInterval(-Double(Store.tombstoneLifetime.seconds)))
            result.forgottenTombstones = try session.execute(
                "DELETE FROM tombstone WHERE greatest(removed_at, coalesce(last_seen, 0)) < ?", [.integer(forgetBefore)])
            // An item anyone saved stays.
            let unsaved = "NOT EXISTS (SELECT 1 FROM item_state k WHERE k.ref = item.ref AND k.saved_at IS NOT NULL)"
            if let maxAge = policy.maxAge {
                let cutoff = Self.millis(now.addingTimeInterval(-Double(maxAge.seconds)))
                result.byAge = try Self.remove(
                    where: SQLFragment("published < ? AND \(unsaved)", [.integer(cutoff)]), at: removedAt, in: session)
            }
            if let maximum = policy.maxItemsPerProvider {
                let providers = try session.rows(
                    "SELECT provider FROM item WHERE \(unsaved) GROUP BY provider HAVING count(*) > ?", [.integer(Int64(maximum))]
                ).compactMap { try $0.get(0, as: String.self) }
                for provider in providers {
                    result.byCount += try Self.remove(
                        where: SQLFragment(
                            """
                            ref IN (SELECT ref FROM item WHERE provider = ? AND \(unsaved)
                                    ORDER BY published DESC, item_id OFFSET ?)
                            """, [.text(provider), .integer(Int64(maximum))]),
                        at: removedAt, in: session)
                }
            }
            return result
        }
    }

    public func remove(refs: [Int64], now: Date) throws -> Int {
        guard !refs.isEmpty else { return 0 }
        return try write { session in
            try Self.remove(where: SQLFragment("ref = ANY(?)", [.integers(refs)]), at: Self.millis(now), in: session)
        }
    }

    public func removeProviders(notIn keep: [String], now: Date) throws -> Int {
        try write { session in
            try Self.remove(where: SQLFragment("NOT (provider = ANY(?))", [.texts(keep)]), at: Self.millis(now), in: session)
        }
    }

    /// Checks what the server can: every table readable and the full-text index usable.
    public func checkIntegrity() throws {
        try read { session in
            for table in ["item", "item_state", "item_label", "section", "tombstone", "provider_state", "item_article"] {
                try session.execute("SELECT count(*) FROM \(table)")
            }
            try session.execute("SELECT count(*) FROM item WHERE search_vector @@ plainto_tsquery('simple', 'aggr')")
        }
    }

    /// Deletes the items `condition` selects (over `item`), leaving tombstones; how many.
    static func remove(where condition: SQLFragment, at removedAt: Int64, in session: PostgresSession) throws -> Int {
        try session.execute(
            SQLFragment(
                """
                INSERT INTO tombstone (provider, item_id, removed_at) SELECT provider, item_id, \(removedAt) FROM item WHERE \(condition.sql)
                ON CONFLICT (provider, item_id) DO UPDATE SET removed_at = excluded.removed_at, last_seen = NULL
                """, condition.values))
        let removed = try session.execute(SQLFragment("DELETE FROM item WHERE \(condition.sql)", condition.values))
        if removed > 0 { try noteTimelineChange(in: session) }
        return removed
    }
}
