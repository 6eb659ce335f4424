import Aggregator
import Foundation

/// The raw field values a generic provider (`html`, `json`) found for one entry.
struct ExtractedFields {
    var title: String?
    var link: String?
    var id: String?
    var author: String?
    var date: String?
    var summary: String?
    var image: String?
}

extension ExtractedFields {
    /// Every field read by name (`title`, `link`, …) through one extraction rule.
    init(reading field: (String) -> String?) {
        self.init(
            title: field("title"), link: field("link"), id: field("id"), author: field("author"), date: field("date"),
            summary: field("summary"), image: field("image"))
    }
}

/// Turns extracted fields into items: links made absolute, dates parsed (with an optional
/// explicit format), missing dates replaced by the fetch time in page order.
struct GenericItemBuilder {
    var provider: String
    var section: String
    var baseURL: String
    var now: Date
    /// A DateFormatter pattern such as `yyyy年MM月dd日 HH:mm`, for sites with unusual dates.
    var dateFormat: String?

    func absolute(_ link: String?) -> String? {
        guard let link = link?.trimmingWhitespace(), !link.isEmpty else { return nil }
        if WebURL.isHTTP(link) { return link }
        guard let resolved = URL(string: link, relativeTo: URL(string: baseURL))?.absoluteURL.absoluteString, WebURL.isHTTP(resolved) else {
            return nil
        }
        return resolved
    }

    func date(_ text: String?) -> Date? {
        guard let text = text?.trimmingWhitespace(), !text.isEmpty else { return nil }
        if let dateFormat {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = dateFormat
            if let date = formatter.date(from: text) { return date }
        }
        return UpstreamDate.parse(text, relativeTo: now)
    }

    /// The item for entry `index`; the caller has checked title and link are present.
    func item(_ fields: ExtractedFields, index: Int, link: String) -> Item {
        let title = ItemText.title(fields.title ?? "")
        return Item(
            provider: provider, section: section, id: fields.id.flatMap { $0.isEmpty ? nil : $0 } ?? link, kind: .post, title: title,
            url: link,
            author: fields.author.flatMap { $0.isEmpty ? nil : Author(name: TerminalText.sanitize($0)) },
            summary: ItemText.summary(fields.summary ?? ""), content: fields.summary,
            published: date(fields.date) ?? now.addingTimeInterval(-Double(index)), image: absolute(fields.image))
    }

    /// The item for entry `index`, or an error naming what is missing: `locate(field)` says
    /// where the field was looked for, `excerpt` shows the entry.
    func checkedItem(_ fields: ExtractedFields, index: Int, locate: (String) -> String, excerpt: () -> String) throws(ProviderError) -> Item
    {
        for (name, value) in [("title", fields.title), ("link", fields.link)] where value?.isEmpty ?? true {
            throw ProviderError.unexpectedPayload(
                detail: localized("entry \(index) has no \(name): \(locate(name)) (entry: \(Self.excerpt(excerpt())))"))
        }
        guard let link = absolute(fields.link) else {
            throw ProviderError.unexpectedPayload(
                detail: localized("entry \(index): link \"\(Self.excerpt(fields.link ?? ""))\" is not a web URL")
            )
        }
        return item(fields, index: index, link: link)
    }

    /// A short, terminal-safe excerpt for errors.
    static func excerpt(_ text: String, limit: Int = 120) -> String {
        TerminalText.excerpt(text, limit: limit)
    }
}
