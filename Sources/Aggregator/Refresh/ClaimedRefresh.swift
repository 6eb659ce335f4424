import Foundation

/// The claims one refresh holds on a database several processes refresh: providers are
/// claimed a few at a time as the refresh gets to them, checked again against the state
/// other workers stored meanwhile, and released once their own state is stored.
struct ClaimedRefresh {
    let refresher: Refresher
    let force: Bool
    let events: @Sendable (RefreshEvent) -> Void

    init(refresher: Refresher, force: Bool, events: @escaping @Sendable (RefreshEvent) -> Void) {
        self.refresher = refresher
        self.force = force
        self.events = events
    }

    var store: any TimelineStorage { refresher.store }

    /// Claims the next providers of `pending` until one is granted and still due, or none
    /// is left; providers another worker holds or has just refreshed are skipped in `summary`.
    func claim(
        from pending: inout ArraySlice<(any Provider, ProviderConfiguration, SharedRateBudget)>, states: [String: ProviderState],
        summary: inout RefreshSummary
    ) -> [(any Provider, ProviderConfiguration, SharedRateBudget, ProviderState?)] {
        while !pending.isEmpty {
            let chunk = Array(pending.prefix(Refresher.sharedClaimChunk))
            pending = pending.dropFirst(chunk.count)
            let ids = chunk.map(\.1.id)
            let now = Date()
            let claims: RefreshClaims
            let fresh: [String: ProviderState]
            do {
                claims = try store.claimRefresh(
                    ids, worker: RefreshWorker.name, now: now, until: now.addingTimeInterval(refresher.claimLease))
                // What other workers stored before this claim: a provider one of them has
                // just refreshed is no longer due.
                fresh = claims.granted.isEmpty ? states : try store.providerStates()
            } catch {
                for id in ids { skip(id, localized("cannot claim for this refresh: \(error)"), until: nil, in: &summary) }
                continue
            }
            var ready: [(any Provider, ProviderConfiguration, SharedRateBudget, ProviderState?)] = []
            var done: [String] = []
            for (provider, entry, budget) in chunk {
                guard claims.granted.contains(entry.id) else {
                    let until = claims.heldElsewhere[entry.id]
                    let when = until.map { localized(" until \(ISOTimestamp.format($0))") } ?? ""
                    skip(entry.id, localized("being refreshed by another worker\(when)"), until: until ?? now, in: &summary)
                    continue
                }
                if let reason = refresher.waitReason(fresh[entry.id], interval: refresher.registry.interval(of: entry), force: force),
                    fresh[entry.id]?.lastAttempt != states[entry.id]?.lastAttempt
                {
                    done.append(entry.id)
                    skip(entry.id, reason, until: nil, in: &summary)
                    continue
                }
                ready.append((provider, entry, budget, fresh[entry.id]))
            }
            release(done)
            if !ready.isEmpty { return ready }
        }
        return []
    }

    /// Gives up the claims on `providers`; one left behind expires with its lease.
    func release(_ providers: String...) { release(providers) }

    func release(_ providers: [String]) {
        try? store.releaseRefresh(providers, worker: RefreshWorker.name)
    }

    private func skip(_ id: String, _ reason: String, until: Date?, in summary: inout RefreshSummary) {
        summary.skipped.append((id, reason, .interval))
        if let until { summary.claimedElsewhere[id] = until }
        events(.skipped(provider: id, reason: reason))
    }
}
