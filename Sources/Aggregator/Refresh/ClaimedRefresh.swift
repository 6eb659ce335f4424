import Foundation

/// The claims one refresh holds on a database several processes refresh: providers are
/// claimed a few at a time as the refresh gets to them, checked again against the state
/// other workers stored meanwhile, and released once their own state is stored.
///
/// A rate-limit budget (one API and token) holds across workers: a provider whose budget
/// another worker found spent is skipped, and this worker's providers on that budget stop
/// before their next request.
struct ClaimedRefresh {
    let refresher: Refresher
    let force: Bool
    let events: @Sendable (RefreshEvent) -> Void
    /// Each provider's budget key (``Refresher/budgetKey(_:)``).
    let budgetKeys: [String: String]

    init(
        refresher: Refresher, force: Bool, budgetKeys: [String: String], events: @escaping @Sendable (RefreshEvent) -> Void
    ) {
        self.refresher = refresher
        self.force = force
        self.budgetKeys = budgetKeys
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
                fresh =
                    claims.granted.isEmpty
                    ? states : try store.providerStates(of: Array(claims.granted), rateLimitedAfter: now)
            } catch {
                for id in ids { skip(id, localized("cannot claim for this refresh: \(error)"), until: nil, in: &summary) }
                continue
            }
            let spent = spentBudgets(fresh, now: now)
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
                if let (sharer, until) = spent[budgetKeys[entry.id] ?? entry.id], sharer != entry.id {
                    // Another worker found this budget spent: no request until it resets.
                    budget.block(until: until)
                    done.append(entry.id)
                    let reason = localized("rate limited until \(ISOTimestamp.format(until)) (budget shared with \(sharer))")
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

    /// The budgets a stored state says are spent (a provider told to wait for its rate
    /// limit), each with that provider and until when.
    func spentBudgets(_ states: [String: ProviderState], now: Date) -> [String: (provider: String, until: Date)] {
        var spent: [String: (provider: String, until: Date)] = [:]
        for (id, state) in states where state.waitReason == .rateLimit {
            guard let until = state.nextAllowedFetch, until > now, let key = budgetKeys[id] else { continue }
            if let known = spent[key], known.until >= until { continue }
            spent[key] = (id, until)
        }
        return spent
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
