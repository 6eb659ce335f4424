import Foundation

/// Finds a page's article, in the manner of Mozilla's Readability.js: paragraphs score their
/// ancestors by text length and commas, class and id names weigh in, link density scales
/// down, the best container takes its siblings that look like more of the same, and the
/// result is cleaned of what is not the article (forms, share bars, link lists, empty blocks).
///
/// Works on libxml2's parse (``ArticleNode``); the result goes through ``HTMLSanitizer``,
/// which also makes its URLs absolute against `<base>` and the page.
public struct ArticleExtractor: Sendable {
    /// Text below which an attempt is retried with fewer rules (Readability's 500).
    public var minimumText = 500

    public init() {}

    struct Flags: OptionSet {
        let rawValue: Int
        static let stripUnlikely = Flags(rawValue: 1)
        static let weightClasses = Flags(rawValue: 2)
        static let cleanConditionally = Flags(rawValue: 4)
        static let all: Flags = [.stripUnlikely, .weightClasses, .cleanConditionally]
    }

    /// The article of the page `bytes` fetched from `url`; nil when the page has none.
    public func extract(_ bytes: [UInt8], url: String) -> Article? {
        guard let document = try? MarkupDocument.html(bytes, url: url), let root = ArticleNode.tree(of: document) else { return nil }
        let metadata = ArticleMetadata(root: root, url: url)
        let base =
            root.descendants(["base"]).first?.attribute("href").flatMap { URL(string: $0, relativeTo: URL(string: url)) }?
            .absoluteURL.absoluteString ?? url
        var best: (node: ArticleNode, length: Int)?
        for flags in [Flags.all, [.weightClasses, .cleanConditionally], [.cleanConditionally], []] as [Flags] {
            guard let page = ArticleNode.tree(of: document) else { return nil }
            guard let article = grab(page, flags: flags) else { continue }
            let length = article.textLength
            if length >= minimumText { best = (article, length); break }
            if best == nil || length > best!.length { best = (article, length) }
        }
        guard let article = best?.node else { return nil }
        let html = HTMLSanitizer.sanitize(article.html(), baseURL: base)
        let text = HTMLText.plainText(html).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !text.isEmpty else { return nil }
        var direction: String?
        var node: ArticleNode? = article
        while let current = node, direction == nil {
            direction = current.attribute("dir")
            node = current.parent
        }
        return Article(
            title: metadata.title, byline: metadata.byline ?? Self.byline(in: root), language: root.attribute("lang"),
            direction: direction ?? root.attribute("dir"), leadImage: metadata.image, excerpt: metadata.excerpt,
            siteName: metadata.siteName,
            content: html, text: text)
    }

    // MARK: The article

    /// One attempt at the article under `flags`; the container of the best content.
    func grab(_ root: ArticleNode, flags: Flags) -> ArticleNode? {
        let body = root.descendants(["body"]).first ?? root
        prepare(body)
        var candidates: [ArticleNode] = []
        var toScore: [ArticleNode] = []
        var stack: [ArticleNode] = body.elementChildren.reversed()
        while let node = stack.popLast() {
            let hints = node.classAndID
            if isHidden(node) {
                node.remove()
                continue
            }
            if flags.contains(.stripUnlikely), node.tag != "body", node.tag != "a",
                (Self.matches(Self.unlikely, hints) && !Self.matches(Self.maybe, hints) && !node.hasAncestor("table")
                    && !node.hasAncestor("code"))
                    || Self.unlikelyRoles.contains(node.attribute("role") ?? "")
            {
                node.remove()
                continue
            }
            if ["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6"].contains(node.tag), isEmptyOfContent(node) {
                node.remove()
                continue
            }
            if Self.scored.contains(node.tag) { toScore.append(node) }
            if node.tag == "div" {
                wrapPhrasing(in: node)
                let elements = node.elementChildren
                if elements.count == 1, elements[0].tag == "p",
                    node.children.allSatisfy({ !$0.isText || $0.text.allSatisfy(\.isWhitespace) }),
                    linkDensity(node) < 0.25
                {
                    let paragraph = elements[0]
                    node.replace(with: paragraph)
                    toScore.append(paragraph)
                    stack.append(contentsOf: paragraph.elementChildren.reversed())
                    continue
                } else if !hasBlockChild(node) {
                    node.tag = "p"
                    toScore.append(node)
                }
            }
            stack.append(contentsOf: node.elementChildren.reversed())
        }
        for element in toScore {
            guard element.parent != nil else { continue }
            let text = element.innerText
            guard text.count >= 25 else { continue }
            let commas = text.unicodeScalars.filter { [",", "，", "、", "،"].contains($0) }.count
            let content = 1 + Double(commas) + Double(min(text.count / 100, 3))
            var ancestor = element.parent
            var level = 0
            while let current = ancestor, level < 5, current.tag != "html" {
                if !current.isCandidate {
                    initialize(current, flags: flags)
                    candidates.append(current)
                }
                current.score += content / (level == 0 ? 1 : level == 1 ? 2 : Double(level) * 3)
                ancestor = current.parent
                level += 1
            }
        }
        for candidate in candidates { candidate.score *= 1 - linkDensity(candidate) }
        var top = candidates.filter { $0.parent != nil || $0 === body }.max { $0.score < $1.score }
        if top == nil || top === body {
            let container = ArticleNode(tag: "div")
            for child in body.children { container.append(child) }
            body.append(container)
            initialize(container, flags: flags)
            top = container
        } else if let found = top {
            top = climb(from: found, body: body, candidates: candidates)
        }
        guard let top else { return nil }
        let article = ArticleNode(tag: "div")
        let threshold = max(10, top.score * 0.2)
        let siblings = top.parent?.children ?? [top]
        for sibling in siblings where !sibling.isText || sibling === top {
            var keep = sibling === top
            if !keep {
                let bonus =
                    !(sibling.attribute("class") ?? "").isEmpty && sibling.attribute("class") == top.attribute("class")
                    ? top.score * 0.2 : 0
                if sibling.isCandidate, sibling.score + bonus >= threshold {
                    keep = true
                } else if sibling.tag == "p" {
                    let density = linkDensity(sibling)
                    let text = sibling.innerText
                    keep =
                        (text.count > 80 && density < 0.25)
                        || (text.count < 80 && !text.isEmpty && density == 0
                            && text.range(of: #"\.( |$)"#, options: .regularExpression) != nil)
                }
            }
            if keep {
                if !["div", "article", "section", "p"].contains(sibling.tag) { sibling.tag = "div" }
                article.append(sibling)
            }
        }
        clean(article, flags: flags)
        return article
    }

    /// Moves from the best candidate to an ancestor that holds more of the article.
    func climb(from found: ArticleNode, body: ArticleNode, candidates: [ArticleNode]) -> ArticleNode {
        var top = found
        // Several of the best candidates sharing an ancestor: the article is that ancestor.
        let alternatives = candidates.filter { $0 !== top && $0.score / top.score >= 0.75 }.sorted { $0.score > $1.score }.prefix(5)
        if alternatives.count >= 3 {
            var parent = top.parent
            while let current = parent, current !== body {
                let holding = alternatives.filter { alternative in
                    var node = alternative.parent
                    while let ancestor = node {
                        if ancestor === current { return true }
                        node = ancestor.parent
                    }
                    return false
                }.count
                if holding >= 3 {
                    top = current
                    break
                }
                parent = current.parent
            }
        }
        var lastScore = top.score
        let threshold = lastScore / 3
        var parent = top.parent
        while let current = parent, current !== body, current.tag != "html" {
            guard current.isCandidate else {
                parent = current.parent
                continue
            }
            if current.score < threshold { break }
            if current.score > lastScore {
                top = current
                break
            }
            lastScore = current.score
            parent = current.parent
        }
        while let only = top.parent, only !== body, only.tag != "html", only.elementChildren.count == 1 { top = only }
        return top
    }

    func initialize(_ node: ArticleNode, flags: Flags) {
        node.isCandidate = true
        switch node.tag {
        case "div": node.score = 5
        case "pre", "td", "blockquote": node.score = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": node.score = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": node.score = -5
        default: node.score = 0
        }
        node.score += classWeight(node, flags: flags)
    }

    func classWeight(_ node: ArticleNode, flags: Flags) -> Double {
        guard flags.contains(.weightClasses) else { return 0 }
        var weight = 0.0
        for value in [node.attribute("class"), node.attribute("id")].compactMap({ $0 }) where !value.isEmpty {
            if Self.matches(Self.negative, value) { weight -= 25 }
            if Self.matches(Self.positive, value) { weight += 25 }
        }
        return weight
    }

    func linkDensity(_ node: ArticleNode) -> Double {
        let length = node.textLength
        guard length > 0 else { return 0 }
        var links = 0.0
        for link in node.descendants(["a"]) {
            let href = link.attribute("href") ?? ""
            links += Double(link.textLength) * (href.hasPrefix("#") && href.count > 1 ? 0.3 : 1)
        }
        return links / Double(length)
    }

    func isHidden(_ node: ArticleNode) -> Bool {
        if let style = node.attribute("style")?.lowercased().replacingOccurrences(of: " ", with: ""),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        if node.attribute("hidden") != nil { return true }
        if node.attribute("aria-hidden") == "true", !(node.attribute("class") ?? "").contains("fallback-image") { return true }
        return false
    }

    func isEmptyOfContent(_ node: ArticleNode) -> Bool {
        !node.hasText && node.descendants(["img", "picture", "video", "iframe", "embed", "object", "svg", "figure"]).isEmpty
    }

    func hasBlockChild(_ node: ArticleNode) -> Bool {
        node.children.contains { Self.blocks.contains($0.tag) || hasBlockChild($0) }
    }

    /// A byline the page's markup names (`rel=author`, `itemprop=author`, a byline class).
    static func byline(in root: ArticleNode) -> String? {
        for node in root.descendants() {
            let rel = node.attribute("rel") ?? ""
            let itemprop = node.attribute("itemprop") ?? ""
            guard rel == "author" || itemprop.contains("author") || matches(bylineHint, node.classAndID) else { continue }
            // A name marked up inside the byline is the byline.
            let named = node.descendants().first { ($0.attribute("itemprop") ?? "").contains("name") }
            let text = (named ?? node).innerText
            if !text.isEmpty, text.count < 100 { return text }
        }
        return nil
    }
}
