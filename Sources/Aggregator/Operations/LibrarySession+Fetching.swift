import Foundation

/// The verbs that reach upstream: a thread fetched on demand, a refresh.
extension LibrarySession {
    // MARK: Threads

    /// The replies stored for `topic` (none for a reply).
    public func thread(of topic: StoredItem) throws -> [StoredItem] {
        topic.item.kind == .reply ? [] : try storage.thread(of: topic, limit: 500)
    }

    /// Whether `topic`'s provider can fetch its thread and fewer replies are stored than it
    /// counts (or none, when it does not count them).
    public func threadCanBeFetched(_ topic: StoredItem, storedReplies: Int) -> Bool {
        Refresher.threadLooksIncomplete(topic.item, storedReplies: storedReplies)
            && Refresher.canFetchThread(of: topic.item, configuration: configuration, registry: registry)
    }

    /// Why replies `topic` counts are not stored and cannot be fetched, if that is so.
    public func whyThreadIsUnavailable(_ topic: StoredItem) -> String? {
        Refresher.whyThreadIsUnavailable(of: topic.item, configuration: configuration, registry: registry)
    }

    /// Fetches `topic`'s thread through its provider and stores it; returns the replies.
    public func fetchThread(of topic: StoredItem) async throws -> [StoredItem] {
        try await refresher().fetchThread(of: topic)
    }

    // MARK: Refreshing

    /// The refresher of the config in force; `http` replaces the session's client (a
    /// recording or a replay).
    func refresher(http: (any HTTPClient)? = nil, now: Date? = nil) -> Refresher {
        Refresher(
            configuration: configuration, registry: registry, store: storage, http: http ?? self.http, environment: environment,
            logger: logger, now: now ?? clock())
    }

    /// Fetches `only` (every enabled provider when empty) and stores what is new, then
    /// applies the config's retention; `force` ignores intervals and backoff.
    ///
    /// A failed prune is thrown, unless `pruneFailed` takes it (the watch logs it and goes on).
    public func refresh(
        only: [String] = [], force: Bool = false, http: (any HTTPClient)? = nil,
        events: @escaping @Sendable (RefreshEvent) -> Void = { _ in }, pruneFailed: ((any Error) -> Void)? = nil
    ) async throws -> RefreshSummary {
        let now = clock()
        let configuration = configuration
        let summary = try await refresher(http: http, now: now).refresh(only: only, force: force, events: events)
        do {
            _ = try storage.prune(configuration.retention, now: now)
        } catch {
            guard let pruneFailed else { throw error }
            pruneFailed(error)
        }
        return summary
    }
}
