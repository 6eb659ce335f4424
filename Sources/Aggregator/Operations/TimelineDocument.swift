import Foundation

/// The timeline as a document another program reads: Atom 1.0, JSON Feed 1.1 or OPML 2.0.
///
/// `aggr export` writes it to a file, `aggr serve` answers feed readers with it.
public enum TimelineDocument {
    /// The formats a timeline exports to.
    public enum Format: String, Sendable, CaseIterable {
        case atom, jsonfeed, opml

        /// The HTTP content type.
        public var contentType: String {
            switch self {
            case .atom: "application/atom+xml; charset=utf-8"
            case .jsonfeed: "application/feed+json; charset=utf-8"
            case .opml: "text/x-opml; charset=utf-8"
            }
        }
    }

    /// The text of `items` as `format`.
    ///
    /// Feed providers of `configuration` carry their feed URL in OPML (credentials removed),
    /// so importing the file re-subscribes. `sanitized` rewrites each item's HTML through
    /// ``HTMLSanitizer`` (for documents served to browsers and readers).
    public static func render(
        // verbatim: a served feed's title: data, the same in every language
        _ items: [StoredItem], as format: Format, configuration: Configuration?, title: String = "aggr timeline",
        sanitized: Bool = false, now: Date
    ) -> String {
        var items = items
        if sanitized {
            items = items.map { stored in
                var stored = stored
                stored.item.content = stored.item.content.map { HTMLSanitizer.sanitize($0, baseURL: stored.item.url) }
                return stored
            }
        }
        switch format {
        case .atom: return TimelineExport.atom(items, title: title, now: now)
        case .jsonfeed: return TimelineExport.jsonFeed(items, title: title)
        case .opml: return OPML.timeline(items, feedURLs: feedURLs(configuration), now: now)
        }
    }

    /// Provider id → the URL of its feed, for the feed type's entries.
    public static func feedURLs(_ configuration: Configuration?) -> [String: String] {
        var feeds: [String: String] = [:]
        for entry in configuration?.providers ?? [] where entry.type == "feed" {
            if let url = entry.stringOption("url") ?? entry.sections.first(where: { $0.kind == "url" })?.argument {
                feeds[entry.id] = url
            }
        }
        return feeds
    }
}
