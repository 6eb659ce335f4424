import Foundation

/// Writes stored items as Atom 1.0 or JSON Feed 1.1, so the merged timeline can be read
/// by any feed reader.
public enum TimelineExport {
    /// A stable IRI for an item: `urn:aggr:<provider>:<percent-encoded id>`.
    static func identifier(_ item: Item) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return "urn:aggr:\(item.provider):\(item.id.addingPercentEncoding(withAllowedCharacters: allowed) ?? item.id)"
    }

    /// An Atom 1.0 feed of `items`, newest first.
    public static func atom(_ items: [StoredItem], title: String = "aggr timeline", now: Date) -> String {
        let updated = items.map { $0.item.updated ?? $0.item.published }.max() ?? now
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        text +=
            "  <title>\(XMLText.escape(title))</title>\n  <id>urn:aggr:timeline</id>\n  <updated>\(ISOTimestamp.format(updated))</updated>\n"
        text += "  <generator version=\"\(AggregatorVersion.current)\">aggr</generator>\n"
        for stored in items {
            let item = stored.item
            text += "  <entry>\n    <id>\(XMLText.escape(identifier(item)))</id>\n"
            text += "    <title>\(XMLText.escape(item.title))</title>\n"
            text += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(XMLText.escape(item.url))\"/>\n"
            text += "    <published>\(ISOTimestamp.format(item.published))</published>\n"
            text += "    <updated>\(ISOTimestamp.format(item.updated ?? item.published))</updated>\n"
            text += "    <author><name>\(XMLText.escape(item.author?.name ?? item.provider))</name>"
            if let url = item.author?.url { text += "<uri>\(XMLText.escape(url))</uri>" }
            text += "</author>\n"
            text +=
                "    <category term=\"\(XMLText.escape(item.provider))\" label=\"\(XMLText.escape(stored.sectionTitle ?? item.section))\"/>\n"
            for tag in item.tags { text += "    <category term=\"\(XMLText.escape(tag))\"/>\n" }
            if !item.summary.isEmpty { text += "    <summary>\(XMLText.escape(item.summary))</summary>\n" }
            if let content = item.content { text += "    <content type=\"html\">\(XMLText.escape(content))</content>\n" }
            if let image = item.image { text += "    <link rel=\"enclosure\" type=\"image/*\" href=\"\(XMLText.escape(image))\"/>\n" }
            text += "  </entry>\n"
        }
        return text + "</feed>\n"
    }

    /// A JSON Feed 1.1 document of `items`.
    public static func jsonFeed(_ items: [StoredItem], title: String = "aggr timeline") -> String {
        var feed: [JSONMember] = [
            JSONMember("version", .string("https://jsonfeed.org/version/1.1")), JSONMember("title", .string(title)),
        ]
        feed.append(
            JSONMember(
                "items",
                .array(
                    items.map { stored in
                        let item = stored.item
                        var members: [JSONMember] = [
                            JSONMember("id", .string(identifier(item))), JSONMember("url", .string(item.url)),
                            JSONMember("title", .string(item.title)),
                        ]
                        if let content = item.content {
                            members.append(JSONMember("content_html", .string(content)))
                        } else {
                            members.append(JSONMember("content_text", .string(item.summary)))
                        }
                        if !item.summary.isEmpty { members.append(JSONMember("summary", .string(item.summary))) }
                        members.append(JSONMember("date_published", .string(ISOTimestamp.format(item.published))))
                        if let updated = item.updated { members.append(JSONMember("date_modified", .string(ISOTimestamp.format(updated)))) }
                        if let author = item.author {
                            var person = [JSONMember("name", .string(author.name))]
                            if let url = author.url { person.append(JSONMember("url", .string(url))) }
                            members.append(JSONMember("authors", .array([.object(person)])))
                        }
                        if !item.tags.isEmpty { members.append(JSONMember("tags", .array(item.tags.map(JSONValue.string)))) }
                        if let image = item.image { members.append(JSONMember("image", .string(image))) }
                        return .object(members)
                    })))
        return JSONPrettyPrinter.format(.object(feed))
    }
}
