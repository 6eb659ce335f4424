import Foundation

/// Finds the feed at an address: the address itself when it is a feed, else the first feed
/// the page advertises.
public struct FeedDiscovery: Sendable {
    public var http: any HTTPClient

    public init(http: any HTTPClient) {
        self.http = http
    }

    /// The feed's URL and title for `address`.
    public func find(_ address: String) async throws(FollowError) -> (url: String, title: String) {
        let response: HTTPResponse
        do {
            response = try await http.send(
                HTTPRequest(url: address, headers: [("Accept", "application/atom+xml, application/rss+xml, text/html;q=0.9, */*;q=0.8")]))
        } catch {
            throw FollowError("\(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw FollowError(localized("\(SecretRedactor.redact(url: address)) answered HTTP \(response.status)"))
        }
        if let feed = try? FeedParser(url: response.url).parse(response.body), !feed.entries.isEmpty || !feed.title.isEmpty {
            return (response.url, feed.title)
        }
        guard let advertised = Self.advertisedFeeds(in: response.body, pageURL: response.url).first else {
            throw FollowError(
                localized(
                    "no feed at \(SecretRedactor.redact(url: address)) and the page advertises none; the html type can read it with selectors (docs/providers.md)"
                )
            )
        }
        let title =
            ((try? await http.send(HTTPRequest(url: advertised))).flatMap { try? FeedParser(url: advertised).parse($0.body) })?.title ?? ""
        return (advertised, title)
    }

    /// The feeds a page advertises with `<link rel="alternate" type="…rss|atom|feed+json">`, resolved.
    public static func advertisedFeeds(in body: [UInt8], pageURL: String) -> [String] {
        guard let document = try? MarkupDocument.html(body, url: pageURL) else { return [] }
        let links = (try? document.select(css: "link[rel~=alternate]")) ?? []
        return links.compactMap { link -> String? in
            let type = (link.attribute("type") ?? "").lowercased()
            guard type.contains("rss") || type.contains("atom") || type.contains("feed+json"), let href = link.attribute("href") else {
                return nil
            }
            return URL(string: href, relativeTo: URL(string: pageURL))?.absoluteURL.absoluteString
        }
    }
}

/// Why an address cannot be followed: a page of a known site no section follows, an
/// upstream fault, or no feed found.
public struct FollowError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// What following an address did.
public enum FollowOutcome: Sendable, Equatable {
    /// The entries changed; what was added (`section node/swift to v2ex`).
    case added(String)
    /// The feed at this URL is read already; nothing changed.
    case alreadyFollowed(feed: String)
}

extension ProviderEntries {
    /// Follows the page at `address`: a section of the type whose site it is, else the feed
    /// it is or advertises (found through `discovery`).
    public mutating func follow(
        _ address: String, registry: ProviderRegistry, discovery: FeedDiscovery
    ) async throws(FollowError)
        -> FollowOutcome
    {
        let page: RecognizedPage?
        do {
            page = try registry.recognize(address)
        } catch {
            throw FollowError(error.description)
        }
        if let page { return .added(follow(page)) }
        let feed = try await discovery.find(address)
        guard let id = addFeed(url: feed.url, title: feed.title) else { return .alreadyFollowed(feed: feed.url) }
        return .added("provider \(id) (feed \(feed.url))")
    }
}
