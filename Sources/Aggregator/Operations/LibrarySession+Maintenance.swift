import Foundation

/// The verbs of commands that keep the store: marking everything, removing, pruning,
/// counting, listing provider state.
extension LibrarySession {
    /// Marks every unread item read, or only those of `providers`; returns how many.
    @discardableResult
    public func markAllRead(providers: [String] = []) throws -> Int {
        try storage.markAllRead(providers: providers, now: clock())
    }

    /// Removes `refs` for good (a refresh does not store them again); returns how many existed.
    @discardableResult
    public func remove(_ refs: [Int64]) throws -> Int { try storage.remove(refs: refs, now: clock()) }

    /// Applies `policy`; with `orphans`, also removes every item of a provider the config
    /// no longer lists (counted as removed by request).
    public func prune(_ policy: RetentionPolicy, orphans: Bool = false) throws -> PruneResult {
        var result = try storage.prune(policy, now: clock())
        if orphans { result.byRequest = try storage.removeProviders(notIn: configuration.providers.map(\.id), now: clock()) }
        return result
    }

    /// Per provider, how many stored items `filter` matches.
    public func count(matching filter: FilterExpression) throws -> [FilterMatchCount] {
        try storage.count(matching: filter, now: clock())
    }

    /// Copies everything this session's store keeps into `target` (a file path or a server
    /// URL one of `servers` opens), which must be new or empty: `aggr migrate --to`.
    public func copyStorage(to target: String, servers: [any StorageServer]) throws -> StorageCopyCount {
        let destination = try Self.openStorage(target, environment: environment, servers: servers)
        return try StorageCopy.copy(from: storage, to: destination)
    }

    /// Each provider's fetch state (last success, failures, waits), without counting items.
    public func providerStates() throws -> [String: ProviderState] { try storage.providerStates() }

    /// How many items are stored, of every provider (no provider's state is read).
    public func storedItemCount() throws -> Int {
        try storage.itemCounts().values.reduce(0) { $0 + $1.total }
    }

    /// Stored and unread items per provider, and each provider's fetch state.
    public func providerStatus() throws -> (counts: [String: ProviderItemCount], states: [String: ProviderState]) {
        (try storage.itemCounts(), try storage.providerStates())
    }

    /// The best matches of the search words `text` among what `query` selects.
    public func search(_ text: String, in query: TimelineQuery, limit: Int) throws -> [StoredItem] {
        try storage.search(text, limit: limit, providers: query.providers, filters: query.filters, hiding: query.hiding, now: query.now)
    }

    /// Stores a stream of items in one transaction (`aggr import`).
    public func importItems(from descriptor: Int32) throws -> ItemImport.Summary {
        try ItemImport(store: storage, now: clock()).run(from: descriptor)
    }

    /// The installation's secret for `purpose`, made on first use.
    public func installationSecret(_ purpose: String) throws -> String { try storage.installationSecret(purpose, now: clock()) }

    /// Replaces the installation's secret for `purpose`.
    public func rotateInstallationSecret(_ purpose: String) throws { try storage.rotateInstallationSecret(purpose, now: clock()) }
}
