internal import CLibXML2
import Foundation

/// An HTML or XML document parsed by libxml2, queried by XPath or CSS selector.
///
/// The document owns the C tree and frees it when the last reference goes; nodes keep
/// their document alive. Documents are not Sendable: parse, query and copy strings out
/// within one task.
public final class MarkupDocument {
    let pointer: xmlDocPtr
    /// Whether the document was parsed as HTML (element names are lowercase).
    public let isHTML: Bool

    /// Silences libxml2's own printing of errors; its error handlers are per thread, so
    /// every parse and query calls this first (it only stores two pointers).
    static func prepare() {
        aggr_xml_silence()
    }

    private init(pointer: xmlDocPtr, isHTML: Bool) {
        self.pointer = pointer
        self.isHTML = isHTML
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    private static let htmlOptions = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
            | HTML_PARSE_COMPACT.rawValue)
    private static let xmlOptions = Int32(
        XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NONET.rawValue
            | XML_PARSE_COMPACT.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_HUGE.rawValue)

    /// Parses HTML; `encoding` is the charset from Content-Type, or nil to sniff (meta, BOM).
    public static func html(_ bytes: [UInt8], url: String? = nil, encoding: String? = nil) throws(MarkupError) -> MarkupDocument {
        let document = read(bytes) { htmlReadMemory($0, $1, url, encoding.flatMap(Self.supported), htmlOptions) }
        guard let document else { throw MarkupError.unreadable(url: url, detail: bytes.isEmpty ? "empty document" : failure("not HTML")) }
        return MarkupDocument(pointer: document, isHTML: true)
    }

    /// Parses XML in recovery mode (truncated or slightly broken feeds still yield a tree).
    public static func xml(_ bytes: [UInt8], url: String? = nil, encoding: String? = nil) throws(MarkupError) -> MarkupDocument {
        let document = read(bytes) { xmlReadMemory($0, $1, url, encoding.flatMap(Self.supported), xmlOptions) }
        guard let document, xmlDocGetRootElement(document) != nil else {
            if let document { xmlFreeDoc(document) }
            throw MarkupError.unreadable(url: url, detail: bytes.isEmpty ? "empty document" : failure("not XML"))
        }
        return MarkupDocument(pointer: document, isHTML: false)
    }

    /// Why a parse of non-empty bytes gave no document: libxml2 could not be loaded, or `detail`.
    private static func failure(_ detail: String) -> String {
        aggr_xml_load_error().map { String(cString: $0) } ?? detail
    }

    /// Hands `bytes` to a libxml2 reader as a C buffer; nil for an empty buffer.
    private static func read(_ bytes: [UInt8], _ reader: (UnsafePointer<CChar>, Int32) -> xmlDocPtr?) -> xmlDocPtr? {
        prepare()
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { reader($0, Int32(buffer.count)) }
        }
    }

    /// `name` when libxml2 knows the encoding, so a bogus charset falls back to sniffing.
    static func supported(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        guard !trimmed.isEmpty, let handler = xmlFindCharEncodingHandler(trimmed) else { return nil }
        xmlCharEncCloseFunc(handler)
        return trimmed
    }

    /// The root element.
    public var root: MarkupNode? {
        xmlDocGetRootElement(pointer).map { MarkupNode(document: self, pointer: $0) }
    }

    /// Elements matching an XPath 1.0 expression, in document order.
    public func select(xpath: String) throws(MarkupError) -> [MarkupNode] {
        try root?.select(xpath: xpath) ?? []
    }

    /// Elements matching a CSS selector (see ``CSSSelector`` for what is supported).
    public func select(css: String) throws(MarkupError) -> [MarkupNode] {
        try select(xpath: try CSSSelector.xpath(for: css, relative: false))
    }
}

/// Why markup could not be read or queried.
public enum MarkupError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(url: String?, detail: String)
    case badXPath(expression: String)
    case badSelector(selector: String, position: Int, message: String)

    /// What went wrong, without the document's address (the caller names it).
    public var detail: String {
        if case .unreadable(_, let detail) = self { return detail }
        return description
    }

    public var description: String {
        switch self {
        case .unreadable(let url, let detail): "\(url.map { "\($0): " } ?? "")cannot parse: \(detail)"
        case .badXPath(let expression): "invalid XPath expression: \(expression)"
        case .badSelector(let selector, let position, let message):
            "invalid CSS selector at column \(position + 1): \(message)\n  \(selector)\n  \(String(repeating: " ", count: position))^"
        }
    }
}
