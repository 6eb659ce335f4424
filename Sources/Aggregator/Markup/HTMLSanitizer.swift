internal import CLibXML2
import Foundation

/// Makes upstream HTML safe to put in a page: parsed by libxml2, rebuilt from an allowlist.
///
/// Only known-harmless elements survive, with a few attributes each; everything is
/// re-serialized and escaped by aggr, so nothing upstream wrote reaches the browser as
/// markup. Dropped with their content: script, style, iframe, object, embed, template,
/// forms and their controls, svg, math. Other unknown elements are unwrapped (their text
/// stays). Links keep only http, https and mailto targets (relative ones resolved against
/// the item's URL) and open with `rel="noopener noreferrer nofollow"`; images keep http(s)
/// sources, or `data:image/` ones, and load with `referrerpolicy="no-referrer"`. No event
/// attribute, `style`, `class` or `id` survives.
public enum HTMLSanitizer {
    /// Elements kept, mapped to the attributes they keep.
    static let allowed: [String: Set<String>] = [
        "a": ["href", "title"], "img": ["src", "alt", "title", "width", "height"], "p": [], "br": [], "hr": [], "div": [],
        "span": [], "em": [], "strong": [], "b": [], "i": [], "u": [], "s": [], "del": [], "ins": [], "sub": [], "sup": [],
        "small": [], "mark": [], "code": [], "pre": [], "kbd": [], "samp": [], "blockquote": [], "q": [], "cite": [],
        "ul": [], "ol": ["start"], "li": [], "dl": [], "dt": [], "dd": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [],
        "h6": [], "table": [], "thead": [], "tbody": [], "tfoot": [], "tr": [], "th": ["colspan", "rowspan"],
        "td": ["colspan", "rowspan"], "caption": [], "figure": [], "figcaption": [], "details": [], "summary": [],
        "abbr": ["title"], "time": [], "picture": [], "video": [], "audio": [],
    ]
    /// Elements removed together with everything inside them.
    static let dropped: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "template", "noscript", "form", "input",
        "button", "select", "textarea", "option", "svg", "math", "link", "meta", "base", "head", "title", "param", "source",
        "track", "canvas", "dialog", "portal",
    ]
    static let void: Set<String> = ["br", "hr", "img"]

    /// The safe markup for `html`; relative links resolve against `baseURL`.
    public static func sanitize(_ html: String, baseURL: String? = nil) -> String {
        guard !html.isEmpty else { return "" }
        let wrapped = Array("<html><head><meta charset=\"utf-8\"></head><body><div>\(html)</div></body></html>".utf8)
        guard let document = try? MarkupDocument.html(wrapped, encoding: "utf-8"),
            let body = try? document.select(xpath: "/html/body/div").first
        else { return escape(html) }
        var output = ""
        var child = body.pointer.pointee.children
        while let node = child {
            write(node, baseURL: baseURL, depth: 0, to: &output)
            child = node.pointee.next
        }
        return output
    }

    /// Deeper trees are flattened to text: a hostile page nested 100,000 levels must not
    /// exhaust the stack.
    public static let maximumDepth = 64

    private static func write(_ node: xmlNodePtr, baseURL: String?, depth: Int, to output: inout String) {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if let content = node.pointee.content { output += escape(String(cString: content)) }
        case XML_ELEMENT_NODE:
            let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
            if dropped.contains(name) { return }
            guard depth < maximumDepth, let attributes = allowed[name] else {
                if depth >= maximumDepth {
                    if let text = xmlNodeGetContent(node) {
                        output += escape(String(cString: text))
                        aggr_xml_free(text)
                    }
                    return
                }
                writeChildren(of: node, baseURL: baseURL, depth: depth + 1, to: &output)
                return
            }
            var opening = "<\(name)"
            for attribute in attributes.sorted() {
                guard let raw = xmlGetProp(node, attribute) else { continue }
                let value = String(cString: raw)
                aggr_xml_free(raw)
                switch (name, attribute) {
                case ("a", "href"):
                    guard let safe = safeURL(value, baseURL: baseURL, allowData: false) else { continue }
                    opening += " href=\"\(escape(safe))\""
                case ("img", "src"):
                    guard let safe = safeURL(value, baseURL: baseURL, allowData: true) else { continue }
                    opening += " src=\"\(escape(safe))\""
                case (_, "width"), (_, "height"), (_, "colspan"), (_, "rowspan"), (_, "start"):
                    guard let number = Int(value.trimmingCharacters(in: .whitespaces)), (0...10_000).contains(number) else { continue }
                    opening += " \(attribute)=\"\(number)\""
                default:
                    opening += " \(attribute)=\"\(escape(value))\""
                }
            }
            if name == "a" { opening += " rel=\"noopener noreferrer nofollow\"" }
            if name == "img" {
                if !opening.contains(" src=") { return }
                opening += " referrerpolicy=\"no-referrer\" loading=\"lazy\""
            }
            if name == "video" || name == "audio" { opening += " controls" }
            output += opening + ">"
            if void.contains(name) { return }
            writeChildren(of: node, baseURL: baseURL, depth: depth + 1, to: &output)
            output += "</\(name)>"
        default:
            // Comments, processing instructions, DTD nodes: dropped.
            return
        }
    }

    private static func writeChildren(of node: xmlNodePtr, baseURL: String?, depth: Int, to output: inout String) {
        var child = node.pointee.children
        while let current = child {
            write(current, baseURL: baseURL, depth: depth, to: &output)
            child = current.pointee.next
        }
    }

    /// `text` resolved and kept when it is http(s) or mailto (or a `data:image/` URL where
    /// allowed); nil otherwise (`javascript:`, `vbscript:`, `data:text/html`…).
    static func safeURL(_ text: String, baseURL: String?, allowData: Bool) -> String? {
        // Browsers ignore ASCII whitespace and controls inside a scheme ("java\tscript:").
        let trimmed = String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        let lowered = trimmed.lowercased()
        if allowData, lowered.hasPrefix("data:image/"), !lowered.hasPrefix("data:image/svg") { return trimmed }
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("mailto:") { return trimmed }
        if let colon = lowered.firstIndex(of: ":"), !lowered[..<colon].contains("/"), !lowered[..<colon].contains("?"),
            !lowered[..<colon].contains("#")
        {
            return nil
        }
        guard let baseURL, let base = URL(string: baseURL), let resolved = URL(string: trimmed, relativeTo: base)?.absoluteString else {
            return nil
        }
        let scheme = resolved.lowercased()
        return scheme.hasPrefix("http://") || scheme.hasPrefix("https://") ? resolved : nil
    }

    /// `text` with `& < > " '` escaped for HTML text and attribute values (and the controls
    /// no document may hold dropped).
    public static func escape(_ text: String) -> String {
        XMLText.escape(text, apostrophe: "&#39;")
    }
}
