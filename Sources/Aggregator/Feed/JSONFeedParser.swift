import Foundation

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
struct JSONFeedParser {
    var url: String

    func parse(_ bytes: [UInt8]) throws(FeedError) -> Feed {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            throw FeedError(url: url, detail: "invalid JSON at \(error)")
        }
        guard let version = document["version"]?.stringValue, version.contains("jsonfeed.org") else {
            throw FeedError(url: url, detail: "JSON without a jsonfeed.org \"version\"")
        }
        guard case .array(let items)? = document["items"] else { throw FeedError(url: url, detail: "JSON Feed without \"items\"") }
        let home = document["home_page_url"]?.stringValue
        func absolute(_ text: String?) -> String? {
            guard let text, !text.isEmpty else { return nil }
            if WebURL.isHTTP(text) { return text }
            return URL(string: text, relativeTo: URL(string: home ?? url))?.absoluteURL.absoluteString
        }
        let feedAuthor = authorName(document)
        let entries = items.map { item in
            var tags: [String] = []
            if case .array(let values)? = item["tags"] { tags = values.compactMap(\.stringValue) }
            var id = item["id"]?.stringValue
            if id == nil, let number = item["id"]?.integerValue { id = String(number) }
            return FeedEntry(
                id: id, title: HTMLText.plainText(item["title"]?.stringValue ?? ""),
                link: absolute(item["url"]?.stringValue ?? item["external_url"]?.stringValue), author: authorName(item) ?? feedAuthor,
                published: item["date_published"]?.stringValue.flatMap { UpstreamDate.parse($0) },
                updated: item["date_modified"]?.stringValue.flatMap { UpstreamDate.parse($0) },
                summary: item["summary"]?.stringValue, content: item["content_html"]?.stringValue ?? item["content_text"]?.stringValue,
                image: absolute(item["image"]?.stringValue ?? item["banner_image"]?.stringValue), tags: tags)
        }
        return Feed(format: .jsonFeed, title: document["title"]?.stringValue ?? "", link: absolute(home), entries: entries)
    }

    /// `authors[0].name` (1.1) or `author.name` (1.0).
    func authorName(_ value: JSONValue) -> String? {
        if case .array(let authors)? = value["authors"], let name = authors.first?["name"]?.stringValue { return name }
        return value["author"]?["name"]?.stringValue
    }
}
