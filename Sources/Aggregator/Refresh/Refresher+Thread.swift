import Foundation

/// Why a thread could not be fetched on demand.
public struct ThreadFetchError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension Refresher {
    /// Whether `item`'s provider can fetch its thread (a V2EX topic's replies, a Gitee
    /// issue's comments).
    public func canFetchThread(of item: Item) -> Bool {
        Self.threadSource(of: item, configuration: configuration, registry: registry) != nil
    }

    /// Whether `item`'s thread looks incomplete with `storedReplies` stored: fewer than the
    /// replies or comments it counts (or none, when it counts nothing); replies have none.
    public static func threadLooksIncomplete(_ item: Item, storedReplies: Int) -> Bool {
        item.kind != .reply && storedReplies < (item.metrics.replies ?? item.metrics.comments ?? 1)
    }

    /// Whether `item`'s provider in `configuration` can fetch its thread, without a refresher
    /// (and the HTTP client it would start).
    public static func canFetchThread(of item: Item, configuration: Configuration, registry: ProviderRegistry) -> Bool {
        threadSource(of: item, configuration: configuration, registry: registry) != nil
    }

    /// Fetches `topic`'s thread through its provider, stores it, and returns the replies now
    /// stored, oldest first.
    ///
    /// For a reader opening an item whose replies no configured section brings: the thread
    /// is stored as a refresh would store it (validators, redaction, tombstones honoured) but
    /// without a section row of its own, and the provider's schedule is not touched. An
    /// upstream rate limit is honoured, and one this fetch meets is remembered.
    public func fetchThread(of topic: StoredItem) async throws -> [StoredItem] {
        guard let (provider, entry, spec) = Self.threadSource(of: topic.item, configuration: configuration, registry: registry) else {
            throw ThreadFetchError(localized("\(topic.item.provider): this provider cannot fetch \(topic.item.kind.rawValue) threads"))
        }
        let metadata = type(of: provider).metadata
        var state = try store.providerStates()[entry.id] ?? ProviderState(provider: entry.id)
        if state.waitReason == .rateLimit, let until = state.nextAllowedFetch, until > now {
            throw ThreadFetchError(localized("\(entry.id): rate limited until \(ISOTimestamp.format(until))"))
        }
        let session = FetchSession(memory: store, provider: entry.id)
        do {
            let fetched = try await Self.fetch(
                spec, of: provider, entry: entry, context: context(for: entry, metadata: metadata, session: session))
            if let items = fetched.items {
                try store.ingest(items, section: fetched.section, now: now, validators: session.stagedValidators, listed: false)
            }
        } catch {
            let until = (error as? RateLimitedError)?.until ?? session.rateLimit.blockedUntil
            if let until, until > now {
                state.nextAllowedFetch = max(state.nextAllowedFetch ?? until, until)
                state.waitReason = .rateLimit
                try? store.saveProviderState(state)
            }
            let message = SecretRedactor.redact(text: Self.describe(error), secrets: secrets(of: entry, metadata: metadata))
            throw ThreadFetchError("\(entry.id) \(spec.key): \(message)")
        }
        return try store.thread(of: topic)
    }

    /// Why `item`'s thread cannot be fetched, in words for a reader; nil when it can.
    public static func whyThreadIsUnavailable(of item: Item, configuration: Configuration, registry: ProviderRegistry) -> String? {
        guard threadSource(of: item, configuration: configuration, registry: registry) == nil else { return nil }
        guard let entry = configuration.provider(id: item.provider) else {
            return localized("its provider \"\(item.provider)\" is no longer in \(configuration.file), so they cannot be fetched")
        }
        return localized("\(entry.type) providers cannot fetch the replies of a \(item.kind.rawValue)")
    }

    /// The provider, its entry and the parsed section that fetch `item`'s thread.
    static func threadSource(
        of item: Item, configuration: Configuration, registry: ProviderRegistry
    ) -> (any Provider, ProviderConfiguration, SectionSpec)? {
        guard let entry = configuration.provider(id: item.provider), let type = registry.type(named: entry.type),
            let provider = try? type.init(configuration: entry), let key = provider.threadSection(for: item),
            let spec = try? SectionSpec.parse(key, for: type.metadata)
        else { return nil }
        return (provider, entry, spec)
    }
}
