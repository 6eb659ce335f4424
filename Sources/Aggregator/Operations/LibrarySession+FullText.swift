import Foundation

/// The full text of summary-only items, read on demand (``FullTextFetch``) and kept with
/// the item.
extension LibrarySession {
    /// Item `stored`'s article: the one kept, or (when none is, or `refetch`) its page's,
    /// through its provider's selector when `full_text` names one.
    public func fullText(of stored: StoredItem, refetch: Bool = false) async throws(FullTextError) -> Article {
        if !refetch, let kept = try? storage.article(of: stored.ref) { return kept }
        let selector = configuration.provider(id: stored.item.provider)?.fullText?.selector
        return try await FullTextFetch(http: http, storage: storage, now: clock()).article(for: stored, selector: selector)
    }

    /// The article kept for item `ref`, without fetching.
    public func keptFullText(of ref: Int64) throws -> Article? { try storage.article(of: ref) }
}
