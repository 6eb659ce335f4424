/// Atom 1.0 (`<feed xmlns="http://www.w3.org/2005/Atom">`).
extension FeedParser {
    func atom(_ root: MarkupNode) -> Feed? {
        let link = alternateLink(root, fallback: nil)
        let entries = root.children.filter { Self.local($0.name) == "entry" }
        return Feed(
            format: .atom, title: atomText(Self.first(root, "title")) ?? "", link: link,
            entries: entries.map { atomEntry($0, siteLink: link) })
    }

    /// The `rel="alternate"` (or rel-less) link of a feed or entry, resolved.
    func alternateLink(_ node: MarkupNode, fallback: String?) -> String? {
        let links = node.children.filter { Self.local($0.name) == "link" }
        let alternate =
            links.first { ($0.attribute("rel") ?? "alternate") == "alternate" && ($0.attribute("type") ?? "text/html").contains("html") }
            ?? links.first { ($0.attribute("rel") ?? "alternate") == "alternate" }
        return alternate.flatMap { resolve($0.attribute("href"), at: $0, fallback: fallback) }
    }

    /// An Atom text construct as plain text (type html/xhtml is converted).
    func atomText(_ node: MarkupNode?) -> String? {
        guard let node else { return nil }
        let type = node.attribute("type") ?? "text"
        let text = type == "xhtml" ? HTMLText.plainText(node.innerHTML) : type == "html" ? HTMLText.plainText(node.text) : node.trimmedText
        return text.isEmpty ? nil : text
    }

    /// An Atom content construct as markup for `content` (xhtml kept as markup, text as is).
    func atomMarkup(_ node: MarkupNode?) -> String? {
        guard let node else { return nil }
        let value = (node.attribute("type") == "xhtml" ? node.innerHTML : node.text).trimmingWhitespace()
        return value.isEmpty ? nil : value
    }

    func atomEntry(_ node: MarkupNode, siteLink: String?) -> FeedEntry {
        var entry = FeedEntry()
        entry.id = Self.text(node, "id")
        entry.title = atomText(Self.first(node, "title")) ?? ""
        entry.link = alternateLink(node, fallback: siteLink)
        entry.author = Self.first(node, "author").flatMap { Self.text($0, "name") }
        entry.published = date(Self.text(node, "published", "issued"))
        entry.updated = date(Self.text(node, "updated", "modified"))
        entry.summary = atomMarkup(Self.first(node, "summary"))
        entry.content = atomMarkup(Self.first(node, "content"))
        entry.tags = node.children.filter { Self.local($0.name) == "category" }.compactMap { $0.attribute("label") ?? $0.attribute("term") }
        let enclosure = node.children.first {
            Self.local($0.name) == "link" && $0.attribute("rel") == "enclosure" && ($0.attribute("type") ?? "").hasPrefix("image/")
        }
        entry.image = enclosure.flatMap { resolve($0.attribute("href"), at: $0, fallback: siteLink) } ?? image(in: node, siteLink: siteLink)
        return entry
    }
}
