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
        let fields = ChildIndex(item)
        var entry = FeedEntry()
        entry.title = HTMLText.plainText(fields.text("title") ?? "")
        let guid = fields.first("guid")
        let guidText = guid?.text.trimmingWhitespace()
        entry.id = (guidText?.isEmpty ?? true) ? nil : guidText
        var link = fields.text("link")
        if link == nil, let guidText, guid?.attribute("isPermaLink") != "false", WebURL.isHTTP(guidText) { link = guidText }
        entry.link = resolve(link, at: item, fallback: siteLink)
        entry.author = (fields.text("creator") ?? fields.text("author")).map(PersonName.displayed)
        entry.published = date(fields.text("pubdate") ?? fields.text("date") ?? fields.text("issued"))
        entry.updated = date(fields.text("modified") ?? fields.text("updated"))
        entry.summary = fields.text("description")
        entry.content = fields.text("encoded")
        entry.tags = fields.all("category").map { $0.trimmedText }.filter { !$0.isEmpty }
        entry.image = image(in: item, siteLink: siteLink)
        return entry
    }

    /// The first image enclosure: `<enclosure type="image/…">` or `<media:content medium="image">`.
    func image(in item: MarkupNode, siteLink: String?) -> String? {
        for child in item.children {
            let name = Self.local(child.name)
            guard name == "enclosure" || name == "content" else { continue }
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

/// The element children of one node grouped by local name, core vocabulary first, so an
/// item's dozen lookups walk its children once.
struct ChildIndex {
    private var byName: [String: [MarkupNode]]

    init(_ node: MarkupNode) {
        let children = node.children
        byName = Dictionary(minimumCapacity: children.count)
        var extensions: [String: [MarkupNode]] = [:]
        for child in children {
            let name = FeedParser.local(child.name)
            if FeedParser.isCore(child) { byName[name, default: []].append(child) } else { extensions[name, default: []].append(child) }
        }
        for (name, nodes) in extensions { byName[name, default: []] += nodes }
    }

    func first(_ name: String) -> MarkupNode? { byName[name]?.first }

    func all(_ name: String) -> [MarkupNode] { byName[name] ?? [] }

    /// The trimmed text of the first non-empty child called `name`.
    func text(_ name: String) -> String? {
        for node in byName[name] ?? [] {
            let value = node.text.trimmingWhitespace()
            if !value.isEmpty { return value }
        }
        return nil
    }
}
