internal import CLibXML2
import Foundation

/// One element (or other node) of a ``MarkupDocument``; strings are copied out of C.
public struct MarkupNode {
    /// Keeps the C tree alive for as long as the node is used.
    let document: MarkupDocument
    let pointer: xmlNodePtr

    init(document: MarkupDocument, pointer: xmlNodePtr) {
        self.document = document
        self.pointer = pointer
    }

    /// Whether this is an element (not text, comment or CDATA).
    public var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }

    /// The element's local name (no prefix); lowercase in HTML documents.
    public var name: String {
        pointer.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The namespace URI of the element, if any.
    public var namespace: String? {
        pointer.pointee.ns?.pointee.href.map { String(cString: $0) }
    }

    /// The value of attribute `name` (no namespace), or nil.
    public func attribute(_ name: String) -> String? {
        guard let value = xmlGetProp(pointer, name) else { return nil }
        defer { aggr_xml_free(value) }
        return String(cString: value)
    }

    /// The value of attribute `name` in namespace `namespace` (such as `rdf:about`).
    public func attribute(_ name: String, namespace: String) -> String? {
        guard let value = xmlGetNsProp(pointer, name, namespace) else { return nil }
        defer { aggr_xml_free(value) }
        return String(cString: value)
    }

    /// All text inside the node, entities decoded, as libxml2 concatenates it.
    public var text: String {
        guard let content = xmlNodeGetContent(pointer) else { return "" }
        defer { aggr_xml_free(content) }
        return String(cString: content)
    }

    /// The node's text with whitespace collapsed to single spaces and trimmed.
    public var trimmedText: String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The markup of the node's children.
    public var innerHTML: String {
        var output = ""
        var child = pointer.pointee.children
        while let current = child {
            output += Self.serialize(current, document: document)
            child = current.pointee.next
        }
        return output
    }

    /// The markup of the node itself.
    public var outerHTML: String { Self.serialize(pointer, document: document) }

    private static func serialize(_ node: xmlNodePtr, document: MarkupDocument) -> String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        if document.isHTML {
            htmlNodeDump(buffer, document.pointer, node)
        } else {
            xmlNodeDump(buffer, document.pointer, node, 0, 0)
        }
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }

    /// The element children, in order.
    public var children: [MarkupNode] {
        var result: [MarkupNode] = []
        var child = pointer.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(MarkupNode(document: document, pointer: current)) }
            child = current.pointee.next
        }
        return result
    }

    /// The first element child whose local name is `name` (and namespace, when given).
    public func child(_ name: String, namespace: String? = nil) -> MarkupNode? {
        children.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// Every element child whose local name is `name` (and namespace, when given).
    public func children(_ name: String, namespace: String? = nil) -> [MarkupNode] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The base URI in effect for this node (`xml:base`, or the document URL).
    public var baseURL: String? {
        guard let base = xmlNodeGetBase(document.pointer, pointer) else { return nil }
        defer { aggr_xml_free(base) }
        return String(cString: base)
    }

    /// Elements matching `expression` evaluated with this node as the context node.
    public func select(xpath expression: String) throws(MarkupError) -> [MarkupNode] {
        MarkupDocument.prepare()
        guard let context = xmlXPathNewContext(document.pointer) else { return [] }
        defer { xmlXPathFreeContext(context) }
        context.pointee.node = pointer
        guard let result = xmlXPathEvalExpression(expression, context) else {
            throw MarkupError.badXPath(expression: expression)
        }
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
        let count = Int(set.pointee.nodeNr)
        return (0..<count).compactMap { index in
            set.pointee.nodeTab[index].map { MarkupNode(document: document, pointer: $0) }
        }
    }

    /// Elements under this node matching a CSS selector.
    public func select(css: String) throws(MarkupError) -> [MarkupNode] {
        try select(xpath: try CSSSelector.xpath(for: css, relative: true))
    }

    /// The first element under this node matching a CSS selector.
    public func first(css: String) throws(MarkupError) -> MarkupNode? {
        try select(css: css).first
    }
}
