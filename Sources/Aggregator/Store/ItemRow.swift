import Foundation
import GRDB

/// How items map to columns of the `item` table.
enum ItemRow {
    /// The columns read for a ``StoredItem``, in the order ``decode(_:)`` expects.
    static let selection = """
        i.ref, i.provider, i.section, i.item_id, i.kind, i.title, i.url, i.author, i.author_url, i.summary,
        i.content, i.published, i.updated, i.tags, i.replies, i.comments, i.stars, i.forks, i.likes, i.views,
        i.image, i.extra, i.first_seen, i.read_at, s.title, i.saved_at
        """

    /// The joins ``selection`` needs.
    static let from = "item i LEFT JOIN section s ON s.provider = i.provider AND s.key = i.section"

    static func decode(_ row: Row) -> StoredItem {
        let authorName: String? = row[7]
        let item = Item(
            provider: row[1], section: row[2], id: row[3],
            kind: ItemKind(rawValue: row[4]) ?? .post,
            title: row[5], url: row[6],
            author: authorName.map { Author(name: $0, url: row[8]) },
            summary: row[9], content: row[10],
            published: Store.date(row[11]),
            updated: (row[12] as Int64?).map(Store.date),
            tags: decodeTags(row[13]),
            metrics: Metrics(replies: row[14], comments: row[15], stars: row[16], forks: row[17], likes: row[18], views: row[19]),
            image: row[20],
            extra: decodeExtra(row[21])
        )
        return StoredItem(
            ref: row[0], item: item, firstSeen: Store.date(row[22]),
            readAt: (row[23] as Int64?).map(Store.date), sectionTitle: row[24], savedAt: (row[25] as Int64?).map(Store.date)
        )
    }

    static func encodeTags(_ tags: [String]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for tag in tags { writer.string(tag) }
        writer.endArray()
        return writer.output
    }

    static func decodeTags(_ text: String) -> [String] {
        guard case .array(let values)? = try? JSONParser.parse(text) else { return [] }
        return values.compactMap(\.stringValue)
    }

    static func encodeExtra(_ extra: [String: String]) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        for key in extra.keys.sorted() {
            writer.key(key)
            writer.string(extra[key]!)
        }
        writer.endObject()
        return writer.output
    }

    static func decodeExtra(_ text: String) -> [String: String] {
        guard case .object(let members)? = try? JSONParser.parse(text) else { return [:] }
        var extra: [String: String] = [:]
        for member in members {
            if let value = member.value.stringValue { extra[member.key] = value }
        }
        return extra
    }
}
