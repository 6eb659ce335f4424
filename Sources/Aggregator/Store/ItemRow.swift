import Foundation
internal import GRDB

/// An item about to be written, with the encodings its columns need, computed once.
package struct ItemRecord: Sendable {
    package let item: Item
    package let tags: String
    package let extra: String
    package let updated: Int64?
    package let canonicalURL: String
    /// What the full-text index gets for a new item, when worked out ahead of the write
    /// (a stream prepares it beside the writes); nil to work it out if the item is new.
    package let search: FullTextIndex.Entry.Indexed?

    /// `item`'s columns; with `indexed`, its full-text entry too.
    package init(_ item: Item, indexed: Bool = false) {
        self.item = item
        tags = ItemRow.encodeTags(item.tags)
        extra = ItemRow.encodeExtra(item.extra)
        updated = item.updated.map(Store.millis)
        canonicalURL = WebURL.canonical(item.url)
        search = indexed ? FullTextIndex.Entry(item).indexed : nil
    }
}

/// One column's value as it is bound: text or an integer, either possibly NULL.
package enum ColumnValue {
    case text(String?)
    case integer(Int64?)

    var databaseValue: DatabaseValue {
        switch self {
        case .text(let value): value?.databaseValue ?? .null
        case .integer(let value): value?.databaseValue ?? .null
        }
    }
}

/// How items map to columns of the `item` table: one map for the lookup, the comparison,
/// the update and the insert of ingest, and one list for what is read back.
package enum ItemRow {
    /// A column an upstream sighting sets, and how to take its value from a record.
    package struct Column: Sendable {
        package let name: String
        package let value: @Sendable (ItemRecord) -> ColumnValue
    }

    /// The columns every sighting sets (and an update rewrites), in one order for the
    /// lookup, the comparison, the update and the insert.
    package static let content: [Column] = [
        Column(name: "kind") { .text($0.item.kind.rawValue) },
        Column(name: "title") { .text($0.item.title) },
        Column(name: "url") { .text($0.item.url) },
        Column(name: "author") { .text($0.item.author?.name) },
        Column(name: "author_url") { .text($0.item.author?.url) },
        Column(name: "summary") { .text($0.item.summary) },
        Column(name: "content") { .text($0.item.content) },
        Column(name: "updated") { .integer($0.updated) },
        Column(name: "tags") { .text($0.tags) },
        Column(name: "replies") { .integer($0.item.metrics.replies.map(Int64.init)) },
        Column(name: "comments") { .integer($0.item.metrics.comments.map(Int64.init)) },
        Column(name: "stars") { .integer($0.item.metrics.stars.map(Int64.init)) },
        Column(name: "forks") { .integer($0.item.metrics.forks.map(Int64.init)) },
        Column(name: "likes") { .integer($0.item.metrics.likes.map(Int64.init)) },
        Column(name: "views") { .integer($0.item.metrics.views.map(Int64.init)) },
        Column(name: "image") { .text($0.item.image) },
        Column(name: "extra") { .text($0.extra) },
    ]

    /// The position of content column `name` in ``content`` (and, after `ref`, in a lookup row).
    static func contentIndex(_ name: String) -> Int {
        content.firstIndex { $0.name == name }!
    }

    /// The columns only an insert sets: who the item is, when it was published and first seen.
    static let identity = ["provider", "section", "item_id", "canonical_url", "published", "first_seen"]

    /// Reads the content columns of one stored item, after its `ref`.
    static let lookupSQL = "SELECT ref, \(content.map(\.name).joined(separator: ", ")) FROM item WHERE provider = ? AND item_id = ?"

    /// Rewrites the content columns and the canonical URL of the item with a given `ref`.
    static let updateSQL =
        "UPDATE item SET \(content.map { "\($0.name) = ?" }.joined(separator: ", ")), canonical_url = ? WHERE ref = ?"

    /// Inserts an item: its number (NULL: the next one), ``identity`` then ``content``; a
    /// stored id is left alone.
    static let insertSQL = """
        INSERT INTO item (\((["ref"] + identity + content.map(\.name)).joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: 1 + identity.count + content.count).joined(separator: ", ")))
        ON CONFLICT (provider, item_id) DO NOTHING
        """

    /// The columns read for a ``StoredItem``, in the order ``decode(_:)`` expects.
    static let selected = [
        "i.ref", "i.provider", "i.section", "i.item_id", "i.kind", "i.title", "i.url", "i.author", "i.author_url", "i.summary",
        "i.content", "i.published", "i.updated", "i.tags", "i.replies", "i.comments", "i.stars", "i.forks", "i.likes", "i.views",
        "i.image", "i.extra", "i.first_seen", "i.read_at", "s.title", "i.saved_at",
    ]

    /// ``selected`` as a select list.
    static let selection = selected.joined(separator: ", ")

    /// The joins ``selection`` needs after `item i`.
    static let join = "LEFT JOIN section s ON s.provider = i.provider AND s.key = i.section"

    /// `item i` with the joins ``selection`` needs.
    static let from = "item i " + join

    /// The stored items `sql` (selecting ``selection``) reads with `arguments`, in its order.
    ///
    /// `cached` keeps the prepared statement with the connection: only for SQL that does not
    /// vary with the query, or the cache would grow with every filter ever asked.
    static func items(
        _ db: Database, sql: String, arguments: [DatabaseValueConvertible?] = [], cached: Bool = false
    ) throws
        -> [StoredItem]
    {
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        try statement.setArguments(StatementArguments(arguments))
        return try ColumnReader.rows(of: statement, in: db, decode)
    }

    /// The item in the current row of a statement selecting ``selection``.
    static func decode(_ row: ColumnReader) -> StoredItem {
        let item = Item(
            provider: row.text(1), section: row.text(2), id: row.text(3),
            kind: ItemKind(rawValue: row.text(4)) ?? .post,
            title: row.text(5), url: row.text(6),
            author: row.optionalText(7).map { Author(name: $0, url: row.optionalText(8)) },
            summary: row.text(9), content: row.optionalText(10),
            published: Store.date(row.integer(11)),
            updated: row.optionalInteger(12).map(Store.date),
            tags: decodeTags(row.text(13)),
            metrics: Metrics(
                replies: row.optionalInt(14), comments: row.optionalInt(15), stars: row.optionalInt(16), forks: row.optionalInt(17),
                likes: row.optionalInt(18), views: row.optionalInt(19)),
            image: row.optionalText(20),
            extra: decodeExtra(row.text(21))
        )
        return StoredItem(
            ref: row.integer(0), item: item, firstSeen: Store.date(row.integer(22)), readAt: row.optionalInteger(23).map(Store.date),
            sectionTitle: row.optionalText(24), savedAt: row.optionalInteger(25).map(Store.date)
        )
    }

    package static func encodeTags(_ tags: [String]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for tag in tags { writer.string(tag) }
        writer.endArray()
        return writer.output
    }

    package static func decodeTags(_ text: String) -> [String] {
        guard case .array(let values)? = try? JSONParser.parse(text) else { return [] }
        return values.compactMap(\.stringValue)
    }

    package static func encodeExtra(_ extra: [String: String]) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        for key in extra.keys.sorted() {
            writer.key(key)
            writer.string(extra[key]!)
        }
        writer.endObject()
        return writer.output
    }

    package static func decodeExtra(_ text: String) -> [String: String] {
        guard case .object(let members)? = try? JSONParser.parse(text) else { return [:] }
        var extra: [String: String] = [:]
        for member in members {
            if let value = member.value.stringValue { extra[member.key] = value }
        }
        return extra
    }
}
