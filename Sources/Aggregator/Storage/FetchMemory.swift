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
}
