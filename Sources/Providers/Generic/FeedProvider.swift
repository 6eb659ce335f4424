import Aggregator
import Foundation

/// Any RSS, Atom or JSON Feed, added through config alone.
public struct FeedProvider: Provider {
    /// The `type` of this provider's entries.
    public static let typeName = "feed"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "Feed",
        summary: localized("Any RSS 0.9x/1.0/2.0, Atom 1.0 or JSON Feed 1.x document."),
        sections: [
            SectionKind("url", summary: localized("The feed at this URL"), argument: .rest(localized("feed url"))),
            SectionKind("feed", summary: localized("The feed named by the url option (the default section)")),
        ],
        options: [OptionSpec("url", .url, summary: localized("The feed URL, for entries without sections"))],
        auth: .none, defaultInterval: TimeSpan(seconds: 1_800), defaultSections: ["feed"])

    public let configuration: ProviderConfiguration

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        for (index, section) in configuration.sections.enumerated() {
            if section.kind == "url", !WebURL.isHTTP(section.argument ?? "") {
                throw configuration.error(
                    at: "sections[\(index)]", localized("feed URL must be an http or https URL (got \"\(section.argument ?? "")\")"))
            }
            if section.kind == "feed", configuration.stringOption("url") == nil {
                throw configuration.error(
                    at: "options", "needs \"url\" (the feed's address), or sections such as \"url/https://example.com/feed.xml\"")
            }
        }
        self.configuration = configuration
    }

    /// The URL a section reads.
    func url(for section: SectionSpec) -> String {
        section.kind == "url" ? section.argument ?? "" : configuration.stringOption("url") ?? ""
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let address = url(for: section)
        let host = URLComponents(string: address)?.host ?? address
        guard
            let response = try await context.get(
                address,
                headers: [("Accept", "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8")])
        else {
            return SectionFetch(section: Section(provider: configuration.id, key: section.key, title: host), items: nil)
        }
        let parser = FeedParser(
            url: response.url, charset: Self.charset(response.header("Content-Type")), now: response.serverDate ?? context.now)
        let feed = try parser.parse(response.body)
        let title = feed.title.isEmpty ? host : TerminalText.sanitize(feed.title)
        return SectionFetch(
            section: Section(provider: configuration.id, key: section.key, title: title),
            items: FeedItemMapper(provider: configuration.id, section: section.key, feedURL: response.url, now: context.now).items(feed))
    }

    /// The `charset` parameter of a Content-Type header.
    package static func charset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            // Trimmed without Foundation's NSString round trip: this runs for every feed fetched.
            let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            if parts.count == 2, parts[0].lowercased() == "charset" {
                var value = parts[1][...]
                while let first = value.first, first == "\"" || first == "'" { value.removeFirst() }
                while let last = value.last, last == "\"" || last == "'" { value.removeLast() }
                return String(value)
            }
        }
        return nil
    }
}

/// Turns feed entries into items: stable ids, web links, plain-text summaries.
public struct FeedItemMapper: Sendable {
    public var provider: String
    public var section: String
    public var feedURL: String
    /// Stands in for missing dates, keeping feed order (the first entry is the newest).
    public var now: Date

    public init(provider: String, section: String, feedURL: String, now: Date) {
        self.provider = provider
        self.section = section
        self.feedURL = feedURL
        self.now = now
    }

    public func items(_ feed: Feed) -> [Item] {
        feed.entries.enumerated().map { index, entry in
            let link = entry.link.flatMap { WebURL.isHTTP($0) ? $0 : nil } ?? feed.link ?? feedURL
            // guid/id, else the link, else a hash of what identifies the entry.
            let id =
                entry.id ?? entry.link ?? "hash:"
                + BodyHash.hex(Array("\(entry.title)\n\(entry.published.map(ISOTimestamp.format) ?? "")".utf8))
            let published = entry.published ?? entry.updated ?? now.addingTimeInterval(-Double(index))
            let body = entry.summary ?? entry.content ?? ""
            return Item(
                provider: provider, section: section, id: id, kind: .post,
                title: entry.title.isEmpty ? ItemText.title(String(ItemText.summary(body).prefix(80))) : ItemText.title(entry.title),
                url: link, author: entry.author.map { Author(name: TerminalText.sanitize($0)) }, summary: ItemText.summary(body),
                content: entry.content ?? entry.summary, published: published,
                updated: entry.updated.flatMap { $0 != published ? $0 : nil }, tags: entry.tags, image: entry.image)
        }
    }
}
