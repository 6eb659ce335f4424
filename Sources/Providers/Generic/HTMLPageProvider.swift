import Aggregator
import Foundation

/// Any web page, through selectors in config: which elements are entries, where each field is.
///
///     { "id": "lobsters", "type": "html",
///       "options": { "url": "https://lobste.rs/",
///                    "items": "li.story",
///                    "fields": { "title": "a.u-url", "link": "a.u-url@href", "id": "@data-shortid",
///                                "author": "a.u-author", "date": "time@datetime" } } }
///
/// A field is a CSS selector (its text), `selector@attribute`, `@attribute` of the entry
/// itself, or `xpath:` followed by an XPath expression relative to the entry.
public struct HTMLPageProvider: Provider {
    /// The `type` of this provider's entries.
    public static let typeName = "html"

    public static let metadata = ProviderMetadata(
        // verbatim: a type's name, shown as is like the type id
        typeName: typeName, displayName: "Web page",
        summary: localized("Any web page: CSS or XPath selectors in config say which elements are entries and where each field is."),
        sections: [
            SectionKind("page", summary: localized("The page in the url option (the default section)")),
            SectionKind("url", summary: localized("This page, with the same selectors"), argument: .rest(localized("page url"))),
        ],
        options: [
            OptionSpec("url", .url, summary: localized("The page URL")),
            OptionSpec("items", .string, summary: localized("Selector of the entries (CSS, or xpath:…)")),
            OptionSpec(
                "fields", .object, summary: localized("Selector per field: title and link required; id, author, date, summary, image")),
            OptionSpec("date_format", .string, summary: localized("Date pattern when dates are unusual (yyyy年MM月dd日)")),
        ],
        auth: .none, defaultInterval: TimeSpan(seconds: 1_800), defaultSections: ["page"])

    /// One field selector, compiled.
    struct FieldSelector {
        var source: String
        var xpath: String?
        var attribute: String?

        init(_ text: String, at path: String, configuration: ProviderConfiguration) throws(ConfigError) {
            source = text
            if text.hasPrefix("xpath:") {
                xpath = String(text.dropFirst(6))
                return
            }
            var selector = text
            if let at = text.lastIndex(of: "@"), !text[at...].contains("]") {
                attribute = String(text[text.index(after: at)...])
                selector = String(text[..<at]).trimmingCharacters(in: .whitespaces)
            }
            if selector.isEmpty { return }
            do {
                xpath = try CSSSelector.xpath(for: selector, relative: true)
            } catch {
                throw configuration.error(at: path, "\(error)")
            }
        }

        /// The field's text in `entry`, or nil.
        func value(in entry: MarkupNode) -> String? {
            var node: MarkupNode? = entry
            if let xpath { node = (try? entry.select(xpath: xpath).first) ?? nil }
            guard let node else { return nil }
            let value = attribute.map { node.attribute($0) } ?? node.trimmedText
            return value.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
        }
    }

    public let configuration: ProviderConfiguration
    let items: String
    let fields: [String: FieldSelector]

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        guard let itemsText = configuration.stringOption("items") else {
            throw configuration.error(at: "options", localized("needs \"items\": the selector of the entries, such as \"article.post\""))
        }
        if itemsText.hasPrefix("xpath:") {
            items = String(itemsText.dropFirst(6))
        } else {
            do {
                items = try CSSSelector.xpath(for: itemsText, relative: false)
            } catch {
                throw configuration.error(at: "options.items", "\(error)")
            }
        }
        fields = try GenericFieldSpec.read(configuration, names: JSONAPIProvider.fieldNames) { text, path throws(ConfigError) in
            try FieldSelector(text, at: path, configuration: configuration)
        }
        if configuration.sections.contains(where: { $0.kind == "page" }), configuration.stringOption("url") == nil {
            throw configuration.error(at: "options", "needs \"url\", or sections such as \"url/https://example.com/news\"")
        }
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let url = section.kind == "url" ? section.argument ?? "" : configuration.stringOption("url") ?? ""
        let described = Section(provider: configuration.id, key: section.key, title: URLComponents(string: url)?.host ?? url)
        guard let response = try await context.get(url, headers: [("Accept", "text/html")], signedIn: true) else {
            return SectionFetch(section: described, items: nil)
        }
        let document: MarkupDocument
        do {
            document = try MarkupDocument.html(
                response.body, url: response.url, encoding: FeedProvider.charset(response.header("Content-Type")))
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        let pageExcerpt = { GenericItemBuilder.excerpt(document.root.map { HTMLText.plainText($0.outerHTML) } ?? "") }
        let entries: [MarkupNode]
        do {
            entries = try document.select(xpath: items)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        guard !entries.isEmpty else {
            throw ProviderError.unexpectedPayload(
                detail: localized(
                    "items selector \"\(configuration.stringOption("items") ?? "")\" matched nothing (page: \(pageExcerpt()))"))
        }
        let title = ((try? document.select(xpath: "//title").first) ?? nil)?.trimmedText
        let builder = GenericItemBuilder(
            provider: configuration.id, section: section.key, baseURL: response.url, now: response.serverDate ?? context.now,
            dateFormat: configuration.stringOption("date_format"))
        var result: [Item] = []
        for (index, entry) in entries.enumerated() {
            let extracted = ExtractedFields { fields[$0]?.value(in: entry) }
            result.append(
                try builder.checkedItem(
                    extracted, index: index, locate: { localized("selector \"\(fields[$0]!.source)\" found nothing") },
                    excerpt: { HTMLText.plainText(entry.outerHTML) }))
        }
        return SectionFetch(
            section: Section(
                provider: configuration.id, key: section.key, title: title.map { TerminalText.sanitize($0) } ?? described.title),
            items: result)
    }
}
