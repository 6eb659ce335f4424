import Foundation

/// A parsed RSS, Atom or JSON Feed document, before it becomes items.
public struct Feed: Sendable, Equatable {
    public enum Format: String, Sendable {
        case rss090 = "RSS 0.9x", rss1 = "RSS 1.0", rss2 = "RSS 2.0", atom = "Atom 1.0", jsonFeed = "JSON Feed"
    }

    public var format: Format
    public var title: String
    /// The site the feed belongs to (absolute when the feed says so).
    public var link: String?
    public var entries: [FeedEntry]

    public init(format: Format, title: String, link: String?, entries: [FeedEntry]) {
        self.format = format
        self.title = title
        self.link = link
        self.entries = entries
    }
}

/// One entry of a feed, with links already resolved to absolute URLs.
public struct FeedEntry: Sendable, Equatable {
    /// guid / id; nil when the feed gives none.
    public var id: String?
    /// Plain-text title.
    public var title: String
    public var link: String?
    public var author: String?
    public var published: Date?
    public var updated: Date?
    /// Summary or description, HTML or text as the feed gave it.
    public var summary: String?
    /// Full content (content:encoded, Atom content, content_html), HTML or text.
    public var content: String?
    /// An image enclosure.
    public var image: String?
    public var tags: [String]

    public init(
        id: String? = nil, title: String = "", link: String? = nil, author: String? = nil, published: Date? = nil, updated: Date? = nil,
        summary: String? = nil, content: String? = nil, image: String? = nil, tags: [String] = []
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.author = author
        self.published = published
        self.updated = updated
        self.summary = summary
        self.content = content
        self.image = image
        self.tags = tags
    }
}

/// A document that is not a feed aggr can read.
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    public var url: String
    public var detail: String

    public var description: String { "\(url) is not a readable feed: \(detail)" }
}
