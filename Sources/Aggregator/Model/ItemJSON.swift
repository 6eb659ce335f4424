/// Writes items in the output contract shape, key for key and in order:
/// `provider, section, id, kind, title, url, author, published, updated, summary, tags,
/// metrics, image, extra`, then `read` and `saved` for a stored item.
public enum ItemJSON {
    /// The contract's keys of an item in order; scripts and tests rely on exactly these.
    public static let keys = [
        "provider", "section", "id", "kind", "title", "url", "author", "published", "updated", "summary", "tags",
        "metrics", "image", "extra",
    ]

    /// The keys of a stored item: the item's, then the user's state (`read`, `saved`).
    public static let storedKeys = keys + ["read", "saved"]

    /// Appends one item as a contract object.
    public static func write(_ item: Item, to writer: inout JSONWriter) {
        writer.beginObject()
        members(of: item, to: &writer)
        writer.endObject()
    }

    /// Appends one stored item as a contract object with its `read` and `saved` state.
    public static func write(_ stored: StoredItem, to writer: inout JSONWriter) {
        writer.beginObject()
        members(of: stored.item, to: &writer)
        writer.key("read"); writer.bool(!stored.isUnread)
        writer.key("saved"); writer.bool(stored.isSaved)
        writer.endObject()
    }

    /// The item's members, without the braces around them.
    private static func members(of item: Item, to writer: inout JSONWriter) {
        writer.key("provider"); writer.string(item.provider)
        writer.key("section"); writer.string(item.section)
        writer.key("id"); writer.string(item.id)
        writer.key("kind"); writer.string(item.kind.rawValue)
        writer.key("title"); writer.string(item.title)
        writer.key("url"); writer.string(item.url)
        writer.key("author")
        if let author = item.author {
            writer.beginObject()
            writer.key("name"); writer.string(author.name)
            writer.key("url"); writer.optionalString(author.url)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("published"); writer.string(ISOTimestamp.format(item.published))
        writer.key("updated"); writer.optionalString(item.updated.map(ISOTimestamp.format))
        writer.key("summary"); writer.string(item.summary)
        writer.key("tags")
        writer.beginArray()
        for tag in item.tags { writer.string(tag) }
        writer.endArray()
        writer.key("metrics")
        writer.beginObject()
        for (name, value) in item.metrics.present {
            writer.key(name)
            writer.integer(value)
        }
        writer.endObject()
        writer.key("image"); writer.optionalString(item.image)
        writer.key("extra")
        writer.beginObject()
        for key in item.extra.keys.sorted() {
            writer.key(key)
            writer.string(item.extra[key]!)
        }
        writer.endObject()
    }

    /// One item as a compact JSON line (no trailing newline).
    public static func line(_ item: Item) -> String {
        var writer = JSONWriter()
        write(item, to: &writer)
        return writer.output
    }

    /// One stored item, with its state, as a compact JSON line (no trailing newline).
    public static func line(_ stored: StoredItem) -> String {
        var writer = JSONWriter()
        write(stored, to: &writer)
        return writer.output
    }

    /// A JSON array of stored items, one object per line for readable diffs.
    public static func array(_ items: [StoredItem]) -> String {
        if items.isEmpty { return "[]" }
        return "[\n" + items.map { line($0) }.joined(separator: ",\n") + "\n]"
    }
}
