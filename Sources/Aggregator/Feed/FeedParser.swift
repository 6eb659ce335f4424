import Foundation

/// Parses RSS 0.9x, RSS 1.0 (RDF), RSS 2.0, Atom 1.0 and JSON Feed 1.x.
///
/// XML is read by libxml2 in recovery mode; a document the XML parser cannot make a feed
/// of (undefined HTML entities, a broken prolog) is read again with the HTML parser, which
/// knows HTML entities and forgives structure. Relative links resolve against `xml:base`,
/// else the feed's own link, else the feed URL.
public struct FeedParser: Sendable {
    /// Where the document was fetched from: the base of last resort for relative links.
    public var url: String
    /// The `charset` of the response's Content-Type, which wins over the document's own declaration.
    public var charset: String?
    /// Resolves relative dates and stands in for missing ones.
    public var now: Date

    public init(url: String, charset: String? = nil, now: Date = Date()) {
        self.url = url
        self.charset = charset
        self.now = now
    }

    enum Namespace {
        static let atom = "http://www.w3.org/2005/Atom"
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let rss1 = "http://purl.org/rss/1.0/"
        static let dublinCore = "http://purl.org/dc/elements/1.1/"
        static let content = "http://purl.org/rss/1.0/modules/content/"
        static let media = "http://search.yahoo.com/mrss/"
    }

    /// The feed in `bytes`.
    public func parse(_ bytes: [UInt8]) throws(FeedError) -> Feed {
        let start = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        if start.first == UInt8(ascii: "{") { return try JSONFeedParser(url: url).parse(bytes) }
        let xmlBytes = HTMLEntityRewriter.rewrite(bytes)
        if let document = try? MarkupDocument.xml(xmlBytes, url: url, encoding: charset), let root = document.root,
            let feed = feed(from: root)
        {
            return feed
        }
        // Broken XML: the HTML parser knows HTML entities and forgives structure.
        let document: MarkupDocument
        do {
            document = try MarkupDocument.html(bytes, url: url, encoding: charset)
        } catch {
            // Nothing parses HTML only when there is nothing to parse or no libxml2 to parse it.
            throw FeedError(url: url, detail: bytes.isEmpty ? "empty body" : error.detail)
        }
        for name in ["rss", "feed", "rdf:rdf", "rdf"] {
            if let root = try? document.select(xpath: "//\(name)").first, let feed = feed(from: root) { return feed }
        }
        let start80 = TerminalText.sanitize(String(decoding: bytes.prefix(80), as: UTF8.self))
        throw FeedError(url: url, detail: "no <rss>, <feed> or <rdf:RDF> element (starts: \(start80))")
    }

    func feed(from root: MarkupNode) -> Feed? {
        switch Self.local(root.name) {
        case "rss": return rss(root)
        case "feed": return atom(root)
        case "rdf": return rdf(root)
        default: return nil
        }
    }

    /// `name` without an `rdf:`-style prefix (the HTML parser keeps prefixes in names).
    static func local(_ name: String) -> String {
        // Bytes, not Characters: every element of every feed passes through here.
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name.lowercased() }
        return String(name[name.utf8.index(after: colon)...]).lowercased()
    }

    /// Whether `node` is in the feed's own vocabulary (no namespace, Atom, RSS 1.0), not an
    /// extension such as `media:title`; the HTML fallback keeps prefixes in names.
    static func isCore(_ node: MarkupNode) -> Bool {
        guard !node.name.utf8.contains(UInt8(ascii: ":")) else { return false }
        return node.namespace == nil || node.namespace == Namespace.atom || node.namespace == Namespace.rss1
    }

    /// The children whose local name is one of `names`, core-vocabulary ones first.
    static func matching(_ node: MarkupNode, _ names: [String]) -> [MarkupNode] {
        let candidates = node.children.filter { names.contains(local($0.name)) }
        return candidates.filter(isCore) + candidates.filter { !isCore($0) }
    }

    /// The first child whose local name is one of `names`, preferring the core vocabulary.
    static func first(_ node: MarkupNode, _ names: String...) -> MarkupNode? {
        matching(node, names).first
    }

    /// The text of the first non-empty child named one of `names`, trimmed.
    static func text(_ node: MarkupNode, _ names: String...) -> String? {
        for child in matching(node, names) {
            let value = child.text.trimmingWhitespace()
            if !value.isEmpty { return value }
        }
        return nil
    }

    /// `href` made absolute against the node's `xml:base`, else `fallback`, else the feed URL.
    func resolve(_ href: String?, at node: MarkupNode, fallback: String?) -> String? {
        guard let href = href?.trimmingWhitespace(), !href.isEmpty else { return nil }
        if WebURL.isHTTP(href) { return href }
        var base = node.baseURL ?? url
        if base == url, let fallback, WebURL.isHTTP(fallback) { base = fallback }
        return URL(string: href, relativeTo: URL(string: base))?.absoluteURL.absoluteString ?? href
    }

    func date(_ text: String?) -> Date? {
        text.flatMap { UpstreamDate.parse($0, relativeTo: now) }
    }
}
