/// Writes items in the output contract shape, key for key and in order:
/// `provider, section, id, kind, title, url, author, published, updated, summary, tags,
/// metrics, image, extra`.
public enum ItemJSON {
    /// The contract's keys in order; scripts and tests rely on exactly these.
    public static let keys = [
        "provider", "section", "id", "kind", "title", "url", "author", "published", "updated", "summary", "tags",
        "metrics", "image", "extra",
    ]

    /// Appends one item as a contract object.
    public static func write(_ item: Item, to writer: inout JSONWriter) {
        writer.beginObject()
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
        writer.endObject()
    }

    /// One item as a compact JSON line (no trailing newline).
    public static func line(_ item: Item) -> String {
        var writer = JSONWriter()
        write(item, to: &writer)
        return writer.output
    }

    /// A JSON array of `items`, one object per line for readable diffs.
    public static func array(_ items: [Item]) -> String {
        if items.isEmpty { return "[]" }
        return "[\n" + items.map(line).joined(separator: ",\n") + "\n]"
    }
}
