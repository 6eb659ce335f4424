/// RSS 0.9x / 2.0 (`<rss><channel><item>`) and RSS 1.0 (`<rdf:RDF>` with sibling `<item>`s).
extension FeedParser {
    func rss(_ root: MarkupNode) -> Feed? {
        guard let channel = Self.first(root, "channel") else { return nil }
        let version = root.attribute("version") ?? "2.0"
        let link = resolve(Self.text(channel, "link"), at: channel, fallback: nil)
        let items = Self.children(channel, "item")
        return Feed(
            format: version.hasPrefix("0.9") ? .rss090 : .rss2, title: Self.text(channel, "title") ?? "",
            link: link, entries: items.map { rssEntry($0, siteLink: link) })
    }

    func rdf(_ root: MarkupNode) -> Feed? {
        let channel = Self.first(root, "channel")
        let link = channel.flatMap { resolve(Self.text($0, "link"), at: $0, fallback: nil) }
        // RSS 1.0 items are children of rdf:RDF, not of the channel; tolerate both.
        var items = Self.children(root, "item")
        if items.isEmpty, let channel { items = Self.children(channel, "item") }
        guard channel != nil || !items.isEmpty else { return nil }
        return Feed(
            format: .rss1, title: channel.flatMap { Self.text($0, "title") } ?? "", link: link,
            entries: items.map { item in
                var entry = rssEntry(item, siteLink: link)
                if entry.id == nil { entry.id = item.attribute("about", namespace: Namespace.rdf) ?? item.attribute("rdf:about") }
                return entry
            })
    }

    static func children(_ node: MarkupNode, _ name: String) -> [MarkupNode] {
        node.children.filter { local($0.name) == name }
    }

    func rssEntry(_ item: MarkupNode, siteLink: String?) -> FeedEntry {
        var entry = FeedEntry()
        entry.title = HTMLText.plainText(Self.text(item, "title") ?? "")
        let guid = Self.first(item, "guid")
        let guidText = guid?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        entry.id = (guidText?.isEmpty ?? true) ? nil : guidText
        var link = Self.text(item, "link")
        if link == nil, let guidText, guid?.attribute("isPermaLink") != "false", WebURL.isHTTP(guidText) { link = guidText }
        entry.link = resolve(link, at: item, fallback: siteLink)
        entry.author = Self.text(item, "creator") ?? Self.text(item, "author")
        entry.published = date(Self.text(item, "pubdate", "date", "issued"))
        entry.updated = date(Self.text(item, "modified", "updated"))
        entry.summary = Self.text(item, "description")
        entry.content = item.children.first { $0.name == "encoded" || $0.name == "content:encoded" }
            .map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        entry.tags = Self.children(item, "category").map { $0.trimmedText }.filter { !$0.isEmpty }
        entry.image = image(in: item, siteLink: siteLink)
        return entry
    }

    /// The first image enclosure: `<enclosure type="image/…">` or `<media:content medium="image">`.
    func image(in item: MarkupNode, siteLink: String?) -> String? {
        for child in item.children {
            let name = Self.local(child.name)
            let type = child.attribute("type") ?? ""
            if name == "enclosure", type.hasPrefix("image/") { return resolve(child.attribute("url"), at: child, fallback: siteLink) }
            if name == "content", child.namespace == Namespace.media || child.name == "media:content",
                child.attribute("medium") == "image" || type.hasPrefix("image/")
            {
                return resolve(child.attribute("url"), at: child, fallback: siteLink)
            }
        }
        return nil
    }
}
