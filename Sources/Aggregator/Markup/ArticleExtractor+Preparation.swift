import Foundation

/// What the extractor does to a page before scoring it: what never belongs to an article
/// removed, `<br><br>` runs made paragraphs, lazy images given their sources, a div's loose
/// text wrapped in paragraphs.
extension ArticleExtractor {
    /// Removes what never belongs to an article and rewrites `<br><br>` runs as paragraphs.
    func prepare(_ body: ArticleNode) {
        for node in body.descendants([
            "script", "style", "noscript", "template", "link", "meta", "nav", "button", "select", "input", "textarea",
        ]) {
            node.remove()
        }
        for node in body.descendants(["font"]) { node.tag = "span" }
        // MathML is not let through the sanitizer (it can smuggle markup); its text is kept.
        for math in body.descendants(["math"]) {
            let text = ArticleNode(tag: "", text: math.innerText)
            let span = ArticleNode(tag: "span", attributes: [("class", "math")])
            span.children = [text]
            text.parent = span
            math.replace(with: span)
        }
        for node in body.descendants(["img"]) { unlazy(node) }
        for br in body.descendants(["br"]) {
            guard let parent = br.parent, let index = parent.children.firstIndex(where: { $0 === br }) else { continue }
            // A <br> followed (past whitespace) by another: the text after them is a paragraph.
            var next = index + 1
            while next < parent.children.count, parent.children[next].isText, parent.children[next].text.allSatisfy(\.isWhitespace) {
                next += 1
            }
            guard next < parent.children.count, parent.children[next].tag == "br" else { continue }
            parent.children[next].remove()
            let paragraph = ArticleNode(tag: "p")
            let after = index + 1
            while after < parent.children.count {
                let sibling = parent.children[after]
                if sibling.tag == "br", after + 1 < parent.children.count, parent.children[after + 1].tag == "br" { break }
                if Self.blocks.contains(sibling.tag) { break }
                paragraph.append(sibling)
            }
            br.replace(with: paragraph)
        }
    }

    /// Lazy images (`data-src`, `data-srcset`, …) given their real source.
    func unlazy(_ image: ArticleNode) {
        let src = image.attribute("src") ?? ""
        if src.isEmpty || src.hasPrefix("data:") || (image.attribute("class") ?? "").contains("lazy") {
            for name in ["data-src", "data-original", "data-lazy-src", "data-url", "data-hi-res-src"] {
                if let value = image.attribute(name), !value.isEmpty, !value.hasPrefix("data:") {
                    image.setAttribute("src", value)
                    break
                }
            }
        }
        if let srcset = image.attribute("data-srcset") ?? image.attribute("data-lazy-srcset"), !srcset.isEmpty {
            image.setAttribute("srcset", srcset)
        }
    }

    /// Wraps a div's runs of text and inline elements in paragraphs.
    func wrapPhrasing(in node: ArticleNode) {
        guard node.children.contains(where: { !$0.isText && Self.blocks.contains($0.tag) }) else { return }
        var rebuilt: [ArticleNode] = []
        var paragraph: ArticleNode?
        for child in node.children {
            if child.isText || Self.phrasing.contains(child.tag) {
                if paragraph == nil {
                    if child.isText, child.text.allSatisfy(\.isWhitespace) {
                        rebuilt.append(child)
                        continue
                    }
                    paragraph = ArticleNode(tag: "p")
                    rebuilt.append(paragraph!)
                }
                paragraph!.children.append(child)
                child.parent = paragraph
            } else {
                paragraph = nil
                rebuilt.append(child)
            }
        }
        node.children = rebuilt
        for child in rebuilt { child.parent = node }
    }
}
