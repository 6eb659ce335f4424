/// What a fetch may ask of what earlier fetches left: the only window a provider's requests
/// have onto the store.
///
/// Conditional GET reads a URL's validators; per-item extra requests ask whether an item is
/// stored already. ``Store`` answers both; saving happens with the items, in the refresher.
public protocol FetchMemory: Sendable {
    /// The validators `provider` kept for `url` (already redacted of secrets).
    func validators(for url: String, provider: String) throws -> HTTPValidators?

    /// Whether item `id` of `provider` is stored.
    func holdsItem(provider: String, id: String) throws -> Bool

    /// Every validator stored for `providers`, by provider and then URL, read at once; nil
    /// when this memory answers only per URL.
    func validators(of providers: Set<String>) throws -> [String: [String: HTTPValidators]]?
}

extension FetchMemory {
    public func validators(of providers: Set<String>) throws -> [String: [String: HTTPValidators]]? { nil }
}

/// A fetch memory whose validators were read once, before a refresh's fetches began.
///
/// A refresh of a thousand feeds asked the database a thousand times, each a read
/// transaction of its own on the pool threads that parse; one read up front answers them
/// all. Whether an item is stored is still asked of the store.
struct ValidatorSnapshot: FetchMemory {
    let store: any FetchMemory
    let validators: [String: [String: HTTPValidators]]

    func validators(for url: String, provider: String) throws -> HTTPValidators? { validators[provider]?[url] }

    func holdsItem(provider: String, id: String) throws -> Bool { try store.holdsItem(provider: provider, id: id) }
}
