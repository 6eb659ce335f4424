internal import CLibXML2
import Foundation

/// A page as a mutable tree for the article extractor: libxml2 parses, this tree is scored,
/// pruned and rewritten, then serialized for the sanitizer.
final class ArticleNode {
    /// Lower-case tag name; empty for a text node.
    var tag: String
    var attributes: [(name: String, value: String)]
    var children: [ArticleNode] = []
    weak var parent: ArticleNode?
    /// A text node's text.
    var text: String
    /// The extractor's score, once the node was made a candidate.
    var score: Double = 0
    var isCandidate = false

    init(tag: String, attributes: [(name: String, value: String)] = [], text: String = "") {
        self.tag = tag
        self.attributes = attributes
        self.text = text
    }

    var isText: Bool { tag.isEmpty }

    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    func setAttribute(_ name: String, _ value: String) {
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            attributes[index].value = value
        } else {
            attributes.append((name, value))
        }
    }

    /// `class` and `id` together, for the class-name hints.
    var classAndID: String { (attribute("class") ?? "") + " " + (attribute("id") ?? "") }

    var elementChildren: [ArticleNode] { children.filter { !$0.isText } }

    /// All text below, entities decoded.
    var textContent: String {
        if isText { return text }
        var output = ""
        appendText(to: &output)
        return output
    }

    private func appendText(to output: inout String) {
        if isText {
            output += text
            return
        }
        for child in children { child.appendText(to: &output) }
    }

    /// The text below with whitespace collapsed and trimmed.
    var innerText: String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        forEachScalar { scalar in
            if Self.isSpace(scalar) {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(" ") }
                pendingSpace = false
                output.append(scalar)
            }
            return true
        }
        return String(output)
    }

    /// How long ``innerText`` is, in Unicode scalars, without building it: the extractor asks
    /// this of every candidate and link, so it walks the text once and allocates nothing.
    var textLength: Int {
        var length = 0
        var pendingSpace = false
        forEachScalar { scalar in
            if Self.isSpace(scalar) {
                pendingSpace = length > 0
            } else {
                length += pendingSpace ? 2 : 1
                pendingSpace = false
            }
            return true
        }
        return length
    }

    /// Whether any text below is not whitespace; stops at the first that is not.
    var hasText: Bool {
        var found = false
        forEachScalar { scalar in
            found = !Self.isSpace(scalar)
            return !found
        }
        return found
    }

    /// Calls `body` with each scalar of the text below, in document order, until it returns false.
    @discardableResult
    private func forEachScalar(_ body: (Unicode.Scalar) -> Bool) -> Bool {
        if isText {
            for scalar in text.unicodeScalars where !body(scalar) { return false }
            return true
        }
        for child in children where !child.forEachScalar(body) { return false }
        return true
    }

    /// Whitespace as `Character.isWhitespace` has it, with ASCII answered without a table look-up.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    /// Every element below, in document order.
    func descendants(_ tags: Set<String>? = nil) -> [ArticleNode] {
        var found: [ArticleNode] = []
        func walk(_ node: ArticleNode) {
            for child in node.children where !child.isText {
                if tags == nil || tags!.contains(child.tag) { found.append(child) }
                walk(child)
            }
        }
        walk(self)
        return found
    }

    func hasAncestor(_ tag: String, maxDepth: Int = 0) -> Bool {
        var depth = 0
        var node = parent
        while let current = node {
            if maxDepth > 0 && depth >= maxDepth { return false }
            if current.tag == tag { return true }
            node = current.parent
            depth += 1
        }
        return false
    }

    func remove() {
        parent?.children.removeAll { $0 === self }
        parent = nil
    }

    func replace(with node: ArticleNode) {
        guard let parent, let index = parent.children.firstIndex(where: { $0 === self }) else { return }
        parent.children[index] = node
        node.parent = parent
        self.parent = nil
    }

    func append(_ node: ArticleNode) {
        node.remove()
        children.append(node)
        node.parent = self
    }

    /// The markup of this node and what it holds.
    func html() -> String {
        var output = ""
        serialize(into: &output)
        return output
    }

    static let voidTags: Set<String> = [
        "br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "embed", "param", "track",
    ]

    private func serialize(into output: inout String) {
        if isText {
            output += HTMLSanitizer.escape(text)
            return
        }
        output += "<\(tag)"
        for (name, value) in attributes { output += " \(name)=\"\(HTMLSanitizer.escape(value))\"" }
        output += ">"
        if Self.voidTags.contains(tag) { return }
        for child in children { child.serialize(into: &output) }
        output += "</\(tag)>"
    }

    // MARK: From libxml2

    /// The tree of `document`'s root element (comments and processing instructions left out).
    static func tree(of document: MarkupDocument) -> ArticleNode? {
        guard let root = xmlDocGetRootElement(document.pointer) else { return nil }
        return convert(root, depth: 0)
    }

    private static func convert(_ pointer: xmlNodePtr, depth: Int) -> ArticleNode? {
        switch pointer.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            guard let content = pointer.pointee.content else { return nil }
            return ArticleNode(tag: "", text: String(cString: content))
        case XML_ELEMENT_NODE:
            let tag = pointer.pointee.name.map { String(cString: $0) }.map { $0.lowercased() } ?? ""
            var attributes: [(String, String)] = []
            var attribute = pointer.pointee.properties
            while let current = attribute {
                let name = current.pointee.name.map { String(cString: $0).lowercased() } ?? ""
                var value = ""
                if let content = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                    value = String(cString: content)
                    aggr_xml_free(content)
                }
                attributes.append((name, value))
                attribute = current.pointee.next
            }
            let node = ArticleNode(tag: tag, attributes: attributes)
            // Deeper than any real page: the rest is dropped rather than recursing on.
            guard depth < 400 else { return node }
            var child = pointer.pointee.children
            while let current = child {
                if let converted = convert(current, depth: depth + 1) {
                    converted.parent = node
                    node.children.append(converted)
                }
                child = current.pointee.next
            }
            return node
        default:
            return nil
        }
    }
}
