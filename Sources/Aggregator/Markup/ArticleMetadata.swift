import Foundation

/// What a page says about its article: JSON-LD first, then `<meta>` (Dublin Core, Open
/// Graph, Twitter, Parse.ly), then `<title>` trimmed of the site's name as Readability.js
/// trims it.
struct ArticleMetadata {
    var title: String
    var byline: String?
    var excerpt: String?
    var siteName: String?
    var image: String?

    init(root: ArticleNode, url: String) {
        var values: [String: String] = [:]
        for meta in root.descendants(["meta"]) {
            guard let content = meta.attribute("content")?.trimmingCharacters(in: .whitespacesAndNewlines), !content.isEmpty else {
                continue
            }
            // As Readability.js: a later tag of the same name wins.
            for key in [meta.attribute("name"), meta.attribute("itemprop"), meta.attribute("property")].compactMap({ $0 }) {
                for name in key.lowercased().split(separator: " ") {
                    values[name.replacingOccurrences(of: ".", with: ":")] = content
                }
            }
        }
        let linked = Self.jsonLD(root, pageTitle: Self.pageTitle(root))
        func first(_ keys: [String]) -> String? { keys.lazy.compactMap { values[$0] }.first.map(Self.unescaped) }
        let metaTitle =
            linked.title
            ?? first([
                "dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title", "title", "twitter:title",
                "parsely-title",
            ])
        title = metaTitle ?? Self.pageTitle(root)
        byline = linked.byline ?? first(["dc:creator", "dcterm:creator", "author", "parsely-author"])
        excerpt =
            linked.excerpt
            ?? first([
                "dc:description", "dcterm:description", "og:description", "weibo:article:description", "description", "twitter:description",
            ])
        siteName = linked.siteName ?? first(["og:site_name"])
        image = first(["og:image", "og:image:url", "twitter:image", "image"]).flatMap {
            URL(string: $0, relativeTo: URL(string: url))?.absoluteURL.absoluteString
        }
    }

    /// `&amp;` and the other entities meta values sometimes carry twice.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return HTMLText.plainText(text)
    }

    static let articleTypes: Set<String> = [
        "Article", "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle", "BackgroundNewsArticle",
        "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle", "Report", "SatiricalArticle", "ScholarlyArticle",
        "MedicalScholarlyArticle", "SocialMediaPosting", "BlogPosting", "LiveBlogPosting", "DiscussionForumPosting", "TechArticle",
        "APIReference",
    ]

    /// The first JSON-LD object of an article type: its name (or headline), author,
    /// description and publisher.
    ///
    /// With both a name and a headline that differ, the one like the page's `<title>` wins,
    /// else the name (aktualne.cz names itself in `name`), as Readability.js decides.
    static func jsonLD(_ root: ArticleNode, pageTitle: String) -> (title: String?, byline: String?, excerpt: String?, siteName: String?) {
        for script in root.descendants(["script"]) where script.attribute("type") == "application/ld+json" {
            let source = script.textContent.trimmingCharacters(in: .whitespacesAndNewlines)
                .replacingOccurrences(of: #"^\s*<!\[CDATA\[|\]\]>\s*$"#, with: "", options: .regularExpression)
            guard let value = try? JSONParser.parse(source, mode: .upstream) else { continue }
            var objects: [JSONValue] = []
            switch value {
            case .array(let list): objects = list
            case .object: objects = [value]
            default: continue
            }
            if let graph = value["@graph"], case .array(let list) = graph { objects += list }
            for object in objects {
                guard let type = object["@type"]?.stringValue, articleTypes.contains(type) else { continue }
                let name = object["name"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines)
                let headline = object["headline"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines)
                var title = name ?? headline
                if let name, let headline, name != headline {
                    let headlineMatches = similarity(headline, pageTitle) > 0.75
                    title = headlineMatches && similarity(name, pageTitle) <= 0.75 ? headline : name
                }
                let author: String?
                if let single = object["author"]?["name"]?.stringValue {
                    author = single
                } else if case .array(let authors)? = object["author"] {
                    let names = authors.compactMap { $0["name"]?.stringValue?.trimmingCharacters(in: .whitespaces) }
                    author = names.isEmpty ? nil : names.joined(separator: ", ")
                } else {
                    author = nil
                }
                return (
                    title, author?.trimmingCharacters(in: .whitespacesAndNewlines), object["description"]?.stringValue,
                    object["publisher"]?["name"]?.stringValue
                )
            }
        }
        return (nil, nil, nil, nil)
    }

    /// How much of `b`'s words `a` also has (Readability.js's text similarity, 0…1).
    static func similarity(_ a: String, _ b: String) -> Double {
        func words(_ text: String) -> [String] {
            text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        }
        let first = Set(words(a))
        let second = words(b)
        guard !first.isEmpty, !second.isEmpty else { return 0 }
        let unique = second.filter { !first.contains($0) }
        return 1 - Double(unique.joined(separator: " ").count) / Double(second.joined(separator: " ").count)
    }

    /// `<title>` without the site's name (`Story | Site` → `Story`), as Readability.js cuts it.
    static func pageTitle(_ root: ArticleNode) -> String {
        let original = (root.descendants(["title"]).first?.innerText ?? "").trimmingCharacters(in: .whitespaces)
        func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }
        var title = original
        var hierarchical = false
        let separators = [" | ", " - ", " – ", " — ", " \\ ", " / ", " > ", " » "]
        if separators.contains(where: { original.contains($0) }) {
            hierarchical = [" \\ ", " / ", " > ", " » "].contains { original.contains($0) }
            // Everything before the last separator; if that is under three words, after the first.
            let last = separators.compactMap { original.range(of: $0, options: .backwards) }.max { $0.lowerBound < $1.lowerBound }
            if let last { title = String(original[..<last.lowerBound]) }
            if words(title) < 3, let first = separators.compactMap({ original.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
                title = String(original[first.upperBound...])
            }
        } else if original.contains(": ") {
            let headings = root.descendants(["h1", "h2"]).map(\.innerText)
            if !headings.contains(original), let colon = original.range(of: ": ", options: .backwards) {
                title = String(original[colon.upperBound...])
                if words(title) < 3, let firstColon = original.range(of: ": ") {
                    title = String(original[firstColon.upperBound...])
                } else if let firstColon = original.range(of: ": "), words(String(original[..<firstColon.lowerBound])) > 5 {
                    title = original
                }
            }
        } else if original.count > 150 || original.count < 15 {
            let headings = root.descendants(["h1"])
            if headings.count == 1 { title = headings[0].innerText }
        }
        title = title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let count = words(title)
        if count <= 4,
            !hierarchical || count != words(original.replacingOccurrences(of: #"[\|\-–—\\/>»]"#, with: "", options: .regularExpression)) - 1
        {
            return original
        }
        return title
    }
}
