import Foundation

/// The full text of summary-only items: the item's page fetched (no cookie, no token), its
/// article extracted by ``ArticleExtractor`` and kept with the item.
extension LibrarySession {
    /// The largest page read for its article.
    static let maximumPageBytes = 5 * 1_048_576

    /// Item `stored`'s article: the one kept, or (when none is, or `refetch`) its page's.
    public func fullText(of stored: StoredItem, refetch: Bool = false) async throws -> Article {
        if !refetch, let kept = try storage.article(of: stored.ref) { return kept }
        let url = TrackingParameters.removed(from: stored.item.url)
        guard WebURL.isHTTP(url) else {
            throw FullTextError("item \(stored.ref) has no web page to read (\(SecretRedactor.redact(url: url)))")
        }
        let response: HTTPResponse
        do {
            response = try await http.send(
                HTTPRequest(url: url, headers: [("Accept", "text/html,application/xhtml+xml")], timeoutSeconds: 30))
        } catch {
            throw FullTextError("\(SecretRedactor.redact(url: url)): \(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw FullTextError("\(SecretRedactor.redact(url: url)) answered HTTP \(response.status)")
        }
        guard response.body.count <= Self.maximumPageBytes else {
            throw FullTextError("\(SecretRedactor.redact(url: url)) is over \(Self.maximumPageBytes / 1_048_576) MB; not read")
        }
        guard var article = ArticleExtractor().extract(response.body, url: response.url) else {
            throw FullTextError("no article found on \(SecretRedactor.redact(url: response.url))")
        }
        article.content = TrackingParameters.removed(fromLinksIn: article.content)
        try storage.saveArticle(article, of: stored.ref, now: clock())
        return article
    }

    /// The article kept for item `ref`, without fetching.
    public func keptFullText(of ref: Int64) throws -> Article? { try storage.article(of: ref) }
}

/// Why an item's full text could not be had.
public struct FullTextError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
