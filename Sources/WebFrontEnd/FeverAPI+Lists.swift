import Aggregator
import Foundation

/// What a Fever app lists: groups, feeds, favicons and items.
extension FeverAPI {
    func groups(_ writer: inout JSONWriter, numbers: FeverNumbers) throws {
        writer.key("groups")
        writer.beginArray()
        for provider in session.configuration.providers.map(\.id) {
            guard let number = numbers.groups[provider] else { continue }
            writer.beginObject()
            writer.key("id")
            writer.integer(number)
            writer.key("title")
            writer.string(provider)
            writer.endObject()
        }
        writer.endArray()
    }

    /// `feeds_groups`: each group's feeds as one comma-separated string.
    func feedsGroups(_ writer: inout JSONWriter, numbers: FeverNumbers) throws {
        var members: [String: [Int]] = [:]
        for (name, number) in numbers.feeds { members[name.provider, default: []].append(number) }
        writer.key("feeds_groups")
        writer.beginArray()
        for provider in session.configuration.providers.map(\.id) {
            guard let group = numbers.groups[provider], let feeds = members[provider] else { continue }
            writer.beginObject()
            writer.key("group_id")
            writer.integer(group)
            writer.key("feed_ids")
            writer.string(feeds.sorted().map(String.init).joined(separator: ","))
            writer.endObject()
        }
        writer.endArray()
    }

    /// Each subscription: its feed (upstream's, else aggr's own), site, icon and last fetch.
    func feeds(_ writer: inout JSONWriter, _ sections: [SectionSummary], numbers: FeverNumbers, states: [String: ProviderState]) throws {
        writer.key("feeds")
        writer.beginArray()
        for section in sections {
            let name = SubscriptionName(provider: section.provider, section: section.key)
            guard let number = numbers.feeds[name] else { continue }
            writer.beginObject()
            writer.key("id")
            writer.integer(number)
            writer.key("favicon_id")
            // The provider's site icon, numbered as its group (`favicons` lists those found).
            writer.integer(session.siteOrigin(of: section.provider) == nil ? 0 : numbers.groups[section.provider] ?? 0)
            writer.key("title")
            writer.string(session.title(of: name, stored: section.title))
            writer.key("url")
            writer.string(session.upstreamFeedURL(of: name) ?? session.readerFeedURL(of: section.provider, base: base))
            writer.key("site_url")
            writer.string(session.siteURL(of: section.provider) ?? "")
            writer.key("is_spark")
            writer.integer(0)
            writer.key("last_updated_on_time")
            writer.integer(Int(states[section.provider]?.lastSuccess?.timeIntervalSince1970 ?? 0))
            writer.endObject()
        }
        writer.endArray()
    }

    /// `favicons`: each provider's site icon as a data URL body, numbered as its group.
    static func favicons(_ writer: inout JSONWriter, icons: [String: SiteIcon], numbers: FeverNumbers) {
        writer.key("favicons")
        writer.beginArray()
        for (provider, icon) in icons.sorted(by: { $0.key < $1.key }) {
            guard let number = numbers.groups[provider], let type = icon.contentType else { continue }
            writer.beginObject()
            writer.key("id")
            writer.integer(number)
            writer.key("data")
            writer.string("\(type);base64,\(Data(icon.data).base64EncodedString())")
            writer.endObject()
        }
        writer.endArray()
    }

    /// The items an `items` call asks for: after `since_id` (oldest first), before `max_id`
    /// (newest first; 0 or a number past the newest for the newest), `with_ids` (at most 50),
    /// else the oldest.
    func items(_ request: WebRequest) throws -> [StoredItem] {
        func number(_ name: String) throws(ReaderRequestError) -> Int64? {
            guard let text = argument(request, name), !text.isEmpty else { return nil }
            guard let value = Int64(text), value >= 0 else {
                throw ReaderRequestError(localized("\(name): \"\(text)\" is not an item number"))
            }
            return value
        }
        if let list = argument(request, "with_ids"), !list.isEmpty {
            let texts = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard texts.count <= Self.page else { throw ReaderRequestError(localized("with_ids: at most \(Self.page) items per call")) }
            let refs = try texts.map { text throws(ReaderRequestError) in
                guard let ref = Int64(text), ref > 0 else {
                    throw ReaderRequestError(localized("with_ids: \"\(text)\" is not an item number"))
                }
                return ref
            }
            return try session.items(refs: refs)
        }
        guard var query = ReaderStream.readingList.query(in: session) else { return [] }
        query.byNumber = true
        query.limit = Self.page
        if let since = try number("since_id") {
            query.storedAfter = since
            query.oldestFirst = true
        } else if let before = try number("max_id") {
            if before > 0 { query.storedThrough = before - 1 }
        } else {
            query.oldestFirst = true
        }
        return try session.timeline(query).items
    }

    /// `items` and `total_items` (how many items the subscriptions hold).
    func itemList(_ writer: inout JSONWriter, _ items: [StoredItem], numbers: FeverNumbers) throws {
        writer.key("items")
        writer.beginArray()
        for stored in items {
            let item = stored.item
            let name = SubscriptionName(provider: item.provider, section: item.section)
            writer.beginObject()
            writer.key("id")
            writer.integer(Int(stored.ref))
            writer.key("feed_id")
            writer.integer(numbers.feeds[name] ?? FeverNumbers.number(of: "\(name.provider)\u{0}\(name.section)"))
            writer.key("title")
            writer.string(item.title)
            writer.key("author")
            writer.string(item.author?.name ?? "")
            writer.key("html")
            writer.string(ReaderAPI.contentHTML(of: item))
            writer.key("url")
            writer.string(item.url)
            writer.key("is_saved")
            writer.integer(stored.savedAt == nil ? 0 : 1)
            writer.key("is_read")
            writer.integer(stored.readAt == nil ? 0 : 1)
            writer.key("created_on_time")
            writer.integer(Int(item.published.timeIntervalSince1970))
            writer.endObject()
        }
        writer.endArray()
        writer.key("total_items")
        writer.integer(try totalItems())
    }
}
