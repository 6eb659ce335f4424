import Foundation

/// What the extractor removes from the article it chose: forms, embeds but video, link
/// lists, image heaps, empty paragraphs.
extension ArticleExtractor {
    /// Removes from the article what is not its text: forms, embeds but video, footers,
    /// asides, link lists and image heaps, empty paragraphs; `h1` becomes `h2`.
    func clean(_ article: ArticleNode, flags: Flags) {
        for node in article.descendants(["form", "fieldset", "footer", "aside", "object", "embed", "link"]) {
            if node.tag == "embed" || node.tag == "object", Self.matches(Self.videos, node.html()) { continue }
            node.remove()
        }
        for frame in article.descendants(["iframe"]) where !Self.matches(Self.videos, frame.attribute("src") ?? "") { frame.remove() }
        if flags.contains(.cleanConditionally) {
            for tag in ["table", "ul", "div", "section"] {
                for node in article.descendants([tag]).reversed() where node.parent != nil { cleanConditionally(node, flags: flags) }
            }
        }
        for heading in article.descendants(["h1"]) { heading.tag = "h2" }
        for heading in article.descendants(["h2", "h3"]) where classWeight(heading, flags: flags) < 0 { heading.remove() }
        for paragraph in article.descendants(["p"]).reversed()
        where !paragraph.hasText && paragraph.descendants(["img", "embed", "object", "iframe", "picture", "video"]).isEmpty {
            paragraph.remove()
        }
    }

    func cleanConditionally(_ node: ArticleNode, flags: Flags) {
        if node.tag == "table", isDataTable(node) { return }
        if node.hasAncestor("code") || node.hasAncestor("pre") { return }
        let weight = classWeight(node, flags: flags)
        if weight + (node.isCandidate ? node.score : 0) < 0 {
            node.remove()
            return
        }
        let text = node.innerText
        guard text.unicodeScalars.filter({ $0 == "," || $0 == "，" }).count < 10 else { return }
        let isList = node.tag == "ul" || node.tag == "ol"
        let paragraphs = Double(node.descendants(["p"]).count)
        let images = Double(node.descendants(["img"]).count)
        let items = Double(node.descendants(["li"]).count) - 100
        let inputs = Double(node.descendants(["input"]).count)
        let embeds = node.descendants(["object", "embed", "iframe"]).filter { !Self.matches(Self.videos, $0.attribute("src") ?? $0.html()) }
            .count
        let density = linkDensity(node)
        let length = text.count
        let headings = node.descendants(["h1", "h2", "h3", "h4", "h5", "h6"]).map(\.textLength).reduce(0, +)
        let headingDensity = length > 0 ? Double(headings) / Double(length) : 0
        let remove =
            (images > 1 && paragraphs / images < 0.5 && !node.hasAncestor("figure"))
            || (!isList && items > paragraphs)
            || (inputs > (paragraphs / 3).rounded(.down))
            || (!isList && headingDensity < 0.9 && length < 25 && (images == 0 || images > 2) && density > 0)
            || (!isList && weight < 25 && density > 0.2)
            || (weight >= 25 && density > 0.5)
            || ((embeds == 1 && length < 75) || embeds > 1)
        if remove { node.remove() }
    }

    /// A table of data (headers, a caption, summary, many cells), not one for layout.
    func isDataTable(_ table: ArticleNode) -> Bool {
        if table.attribute("role") == "presentation" { return false }
        if table.attribute("datatable") == "0" { return false }
        if table.attribute("summary") != nil { return true }
        if !table.descendants(["caption", "th", "thead", "tfoot", "colgroup", "col"]).isEmpty { return true }
        if !table.descendants(["table"]).isEmpty { return false }
        let rows = table.descendants(["tr"])
        let columns = rows.map { $0.elementChildren.count }.max() ?? 0
        return rows.count >= 10 || columns > 4 || rows.count * columns > 10
    }
}
