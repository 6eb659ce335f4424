import Aggregator
import Foundation

/// What a reader app lists: the user, subscriptions (provider sections), labels and unread counts.
extension ReaderAPI {
    /// The user signed in: a database user by name, else the site's `serve.user`.
    func userInfo(_ writer: inout JSONWriter) {
        writer.beginObject()
        let name = keys.user ?? session.configuration.serve.user
        for (key, value) in [("userId", "1"), ("userName", name), ("userProfileId", "1"), ("userEmail", "")] {
            writer.key(key)
            writer.string(value)
        }
        writer.endObject()
    }

    /// Provider sections, stored or configured, each labelled with its provider.
    func sectionList() throws -> [SectionSummary] { try session.subscriptions() }

    /// Each subscription with its folder (its provider), the feed a reader follows for it
    /// (upstream's for a feed, else aggr's own at the address asked) and its site.
    func subscriptions(_ writer: inout JSONWriter, base: String) throws {
        writer.beginObject()
        writer.key("subscriptions")
        writer.beginArray()
        for section in try sectionList() {
            let name = SubscriptionName(provider: section.provider, section: section.key)
            writer.beginObject()
            writer.key("id")
            writer.string(ReaderStream.subscriptionID(provider: section.provider, section: section.key))
            writer.key("title")
            writer.string(session.title(of: name, stored: section.title))
            writer.key("categories")
            writer.beginArray()
            writer.beginObject()
            writer.key("id")
            writer.string("user/-/label/\(section.provider)")
            writer.key("label")
            writer.string(section.provider)
            writer.endObject()
            writer.endArray()
            writer.key("url")
            writer.string(session.upstreamFeedURL(of: name) ?? session.readerFeedURL(of: section.provider, base: base))
            writer.key("htmlUrl")
            writer.string(session.siteURL(of: section.provider) ?? "")
            writer.key("iconUrl")
            writer.string("\(base)/favicons/\(PercentEncoding.component(section.provider))")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    /// Starred, the folders (views and providers), then the labels users put on items.
    func tags(_ writer: inout JSONWriter) throws {
        let configuration = session.configuration
        writer.beginObject()
        writer.key("tags")
        writer.beginArray()
        writer.beginObject()
        writer.key("id")
        writer.string(ReaderStream.starredID)
        writer.endObject()
        for name in configuration.views.map(\.name) + configuration.providers.map(\.id) {
            writer.beginObject()
            writer.key("id")
            writer.string("user/-/label/\(name)")
            writer.key("type")
            writer.string("folder")
            writer.endObject()
        }
        for (label, _) in try session.labelUse() {
            writer.beginObject()
            writer.key("id")
            writer.string("user/-/label/\(label)")
            writer.key("type")
            writer.string("tag")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    func unreadCounts(_ writer: inout JSONWriter) throws {
        let configuration = session.configuration
        let sections = try sectionList()
        var rows: [(String, Int, Date?)] = sections.map {
            (ReaderStream.subscriptionID(provider: $0.provider, section: $0.key), $0.unread, $0.newestUnread)
        }
        for entry in configuration.providers {
            let own = sections.filter { $0.provider == entry.id }
            rows.append(("user/-/label/\(entry.id)", own.reduce(0) { $0 + $1.unread }, own.compactMap(\.newestUnread).max()))
        }
        for view in configuration.views {
            guard var query = baseQuery(.label(view.name)) else { continue }
            query.unreadOnly = true
            rows.append(("user/-/label/\(view.name)", try session.count(query, cap: Self.maximumCount), nil))
        }
        for (label, _) in try session.labelUse() {
            guard var query = baseQuery(.label(label)) else { continue }
            query.unreadOnly = true
            rows.append(("user/-/label/\(label)", try session.count(query, cap: Self.maximumCount), nil))
        }
        rows.append((ReaderStream.readingListID, sections.reduce(0) { $0 + $1.unread }, sections.compactMap(\.newestUnread).max()))
        writer.beginObject()
        writer.key("max")
        writer.integer(Self.maximumCount)
        writer.key("unreadcounts")
        writer.beginArray()
        for (id, count, newest) in rows where count > 0 {
            writer.beginObject()
            writer.key("id")
            writer.string(id)
            writer.key("count")
            writer.integer(count)
            writer.key("newestItemTimestampUsec")
            writer.string(String(Int64((newest ?? now).timeIntervalSince1970 * 1_000_000)))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
