import Aggregator
import Foundation

/// Several `aggr watch` and `aggr serve` processes, on any machines, share the refresh: each
/// claims the providers it fetches with `FOR UPDATE SKIP LOCKED`, as a lease that expires,
/// so a claim is never granted twice and a killed worker's providers are taken over.
extension PostgresStore {
    public var sharesRefresh: Bool { true }

    public func claimRefresh(_ providers: [String], worker: String, now: Date, until: Date) throws -> RefreshClaims {
        guard !providers.isEmpty else { return RefreshClaims() }
        return try write { session in
            try session.execute(
                "INSERT INTO refresh_claim (provider, worker, until) SELECT p, '', 0 FROM unnest(?::text[]) p ON CONFLICT DO NOTHING",
                [.texts(providers)])
            let granted = try session.rows(
                """
                UPDATE refresh_claim c SET worker = ?, until = ?
                FROM (SELECT provider FROM refresh_claim WHERE provider = ANY(?) AND (until <= ? OR worker = ?)
                      FOR UPDATE SKIP LOCKED) free
                WHERE c.provider = free.provider RETURNING c.provider
                """,
                [.text(worker), .integer(Self.millis(until)), .texts(providers), .integer(Self.millis(now)), .text(worker)]
            ).compactMap { try $0.get(0, as: String.self) }
            var claims = RefreshClaims(granted: Set(granted))
            for row in try session.rows(
                "SELECT provider, until FROM refresh_claim WHERE provider = ANY(?) AND NOT (provider = ANY(?))",
                [.texts(providers), .texts(granted)])
            {
                claims.heldElsewhere[try row.get(0, as: String.self) ?? ""] = Self.date(try row.get(1, as: Int64.self) ?? 0)
            }
            return claims
        }
    }

    public func releaseRefresh(_ providers: [String], worker: String) throws {
        guard !providers.isEmpty else { return }
        try write { session in
            try session.execute(
                "UPDATE refresh_claim SET until = 0 WHERE provider = ANY(?) AND worker = ?", [.texts(providers), .text(worker)])
        }
    }
}
