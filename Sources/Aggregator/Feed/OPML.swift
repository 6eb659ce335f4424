import Foundation

/// Reads OPML subscription lists and writes the timeline as OPML 2.0.
public enum OPML {
    /// One feed subscription found in an OPML file.
    public struct Subscription: Sendable, Equatable {
        public var title: String
        public var feedURL: String
        public var siteURL: String?

        public init(title: String, feedURL: String, siteURL: String? = nil) {
            self.title = title
            self.feedURL = feedURL
            self.siteURL = siteURL
        }
    }

    /// A subscription list as OPML 2.0: a folder outline per group holding its feeds, each
    /// with `xmlUrl` (credentials redacted) and `htmlUrl`, so a reader importing it follows
    /// every feed.
    public static func subscriptionList(_ groups: [(folder: String, feeds: [Subscription])], title: String, now: Date) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n"
        text += "    <title>\(XMLText.escape(title))</title>\n    <dateCreated>\(rfc822(now))</dateCreated>\n  </head>\n  <body>\n"
        for group in groups where !group.feeds.isEmpty {
            text += "    <outline text=\"\(XMLText.escape(group.folder))\" title=\"\(XMLText.escape(group.folder))\">\n"
            for feed in group.feeds {
                let name = XMLText.escape(feed.title)
                text += "      <outline type=\"rss\" text=\"\(name)\" title=\"\(name)\""
                text += " xmlUrl=\"\(XMLText.escape(SecretRedactor.redact(url: feed.feedURL)))\""
                if let site = feed.siteURL { text += " htmlUrl=\"\(XMLText.escape(SecretRedactor.redact(url: site)))\"" }
                text += "/>\n"
            }
            text += "    </outline>\n"
        }
        return text + "  </body>\n</opml>\n"
    }

    /// Every outline with an http(s) `xmlUrl`, folders flattened, in document order.
    public static func subscriptions(in bytes: [UInt8], file: String) throws(FeedError) -> [Subscription] {
        let document: MarkupDocument
        do {
            document = try MarkupDocument.xml(HTMLEntityRewriter.rewrite(bytes), url: nil)
        } catch {
            throw FeedError(url: file, detail: error.detail)
        }
        guard let root = document.root, root.name.lowercased() == "opml" else {
            throw FeedError(url: file, detail: "not an OPML document (no <opml> root)")
        }
        let outlines = (try? document.select(xpath: "//*[local-name()='outline']")) ?? []
        return outlines.compactMap { outline in
            guard let url = outline.attribute("xmlUrl") ?? outline.attribute("xmlurl"), WebURL.isHTTP(url) else { return nil }
            let title = outline.attribute("title") ?? outline.attribute("text") ?? ""
            return Subscription(
                title: TerminalText.sanitize(title), feedURL: url,
                siteURL: outline.attribute("htmlUrl").flatMap { WebURL.isHTTP($0) ? $0 : nil })
        }
    }

    /// The timeline as OPML 2.0: one outline per provider (feed providers carry their
    /// `xmlUrl`, so importing the file re-subscribes), holding one link outline per item.
    public static func timeline(_ items: [StoredItem], feedURLs: [String: String], now: Date) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n"
        text += "    <title>aggr timeline</title>\n    <dateCreated>\(rfc822(now))</dateCreated>\n  </head>\n  <body>\n"
        var order: [String] = []
        var byProvider: [String: [StoredItem]] = [:]
        for stored in items {
            if byProvider[stored.item.provider] == nil { order.append(stored.item.provider) }
            byProvider[stored.item.provider, default: []].append(stored)
        }
        for provider in order {
            let feed = feedURLs[provider].map { " type=\"rss\" xmlUrl=\"\(XMLText.escape(SecretRedactor.redact(url: $0)))\"" } ?? ""
            text += "    <outline text=\"\(XMLText.escape(provider))\"\(feed)>\n"
            for stored in byProvider[provider] ?? [] {
                let item = stored.item
                text += "      <outline text=\"\(XMLText.escape(item.title))\" type=\"link\" url=\"\(XMLText.escape(item.url))\""
                text += " created=\"\(rfc822(item.published))\"/>\n"
            }
            text += "    </outline>\n"
        }
        return text + "  </body>\n</opml>\n"
    }

    /// An RFC 822 date as OPML 2.0 requires (`Sat, 21 Nov 2026 04:31:13 GMT`).
    static func rfc822(_ date: Date) -> String {
        let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let seconds = Int(floor(date.timeIntervalSince1970))
        let weekday = days[((seconds / 86_400) % 7 + 7) % 7]
        let iso = ISOTimestamp.format(date)  // 2026-11-21T04:31:13Z
        let parts = iso.split(whereSeparator: { "-T:Z".contains($0) }).map(String.init)
        return "\(weekday), \(parts[2]) \(months[Int(parts[1])! - 1]) \(parts[0]) \(parts[3]):\(parts[4]):\(parts[5]) GMT"
    }
}
