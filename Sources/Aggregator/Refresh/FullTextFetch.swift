import Foundation

/// Reads an item's page for its article and keeps it: the page fetched without cookie or
/// token and without tracking parameters, at most 5 MB, its article found by
/// ``ArticleExtractor`` or by the provider's CSS selector (`"full_text": {"selector": …}`).
public struct FullTextFetch: Sendable {
    public var http: any HTTPClient
    public var storage: any TimelineStorage
    public var now: Date

    /// The largest page read for its article.
    public static let maximumPageBytes = 5 * 1_048_576

    public init(http: any HTTPClient, storage: any TimelineStorage, now: Date) {
        self.http = http
        self.storage = storage
        self.now = now
    }

    /// Reads `stored`'s page, extracts its article (with `selector` when given) and keeps it.
    public func article(for stored: StoredItem, selector: String? = nil) async throws(FullTextError) -> Article {
        let url = TrackingParameters.removed(from: stored.item.url)
        let shown = SecretRedactor.redact(url: url)
        guard WebURL.isHTTP(url) else { throw FullTextError(localized("item \(stored.ref) has no web page to read (\(shown))")) }
        let response: HTTPResponse
        do {
            response = try await http.send(
                // verbatim: an Accept header
                HTTPRequest(url: url, headers: [("Accept", "text/html,application/xhtml+xml")], timeoutSeconds: 30))
        } catch {
            throw FullTextError("\(shown): \(error)")
        }
        guard (200..<300).contains(response.status) else { throw FullTextError(localized("\(shown) answered HTTP \(response.status)")) }
        guard response.body.count <= Self.maximumPageBytes else {
            throw FullTextError(localized("\(shown) is over \(Self.maximumPageBytes / 1_048_576) MB; not read"))
        }
        var article: Article
        if let selector {
            guard let document = try? MarkupDocument.html(response.body, url: response.url),
                let found = (try? document.select(css: selector))?.first
            else { throw FullTextError(localized("nothing matches the selector \"\(selector)\" on \(shown)")) }
            let content = HTMLSanitizer.sanitize(found.innerHTML, baseURL: response.url)
            article = Article(
                title: stored.item.title, content: content,
                text: HTMLText.plainText(content).split(whereSeparator: \.isWhitespace).joined(separator: " "))
        } else {
            guard let extracted = ArticleExtractor().extract(response.body, url: response.url) else {
                throw FullTextError(localized("no article found on \(SecretRedactor.redact(url: response.url))"))
            }
            article = extracted
        }
        article.content = TrackingParameters.removed(fromLinksIn: article.content)
        do {
            try storage.saveArticle(article, of: stored.ref, now: now)
        } catch {
            throw FullTextError(localized("keeping the article of item \(stored.ref): \(error)"))
        }
        return article
    }
}

/// Why an item's full text could not be had.
public struct FullTextError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
