internal import CLibXML2

/// Turns HTML into readable plain text with libxml2: block elements become line breaks,
/// entities are decoded, whitespace is collapsed and script/style are dropped.
public enum HTMLText {
    /// Elements that stand apart as paragraphs (a blank line around them).
    private static let blockElements: Set<String> = [
        "p", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "section",
        "article", "header", "footer", "hr", "dl", "figure",
    ]
    /// Elements that start a new line without a blank line.
    private static let lineElements: Set<String> = ["br", "li", "tr", "dd", "dt", "figcaption"]
    private static let droppedElements: Set<String> = ["script", "style", "noscript", "template", "head"]

    /// The text of `html`; text that is not HTML comes back with whitespace tidied.
    public static func plainText(_ html: String) -> String {
        var links: [String]?
        return render(html, links: &links, baseURL: nil)
    }

    /// The text of `html` with each link's text followed by `[n]`, and the links' targets
    /// (http, https and mailto only, relative ones resolved against `baseURL`) in order:
    /// what a terminal reader shows and opens by number.
    ///
    /// `numberedAfter` are links already numbered (a page's, before its replies'): numbering
    /// continues after them, and the result holds them too.
    public static func readable(_ html: String, baseURL: String?, numberedAfter: [String] = []) -> (text: String, links: [String]) {
        var links: [String]? = numberedAfter
        let text = render(html, links: &links, baseURL: baseURL)
        return (text, links ?? numberedAfter)
    }

    private static func render(_ html: String, links: inout [String]?, baseURL: String?) -> String {
        guard mayHoldMarkup(html) else { return tidy(html) }
        MarkupDocument.prepare()
        let bytes = Array(html.utf8)
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document else { return tidy(html) }
        defer { xmlFreeDoc(document) }
        var output = ""
        walk(xmlDocGetRootElement(document), into: &output, links: &links, baseURL: baseURL)
        return tidy(output)
    }

    private static func walk(_ start: xmlNodePtr?, into output: inout String, links: inout [String]?, baseURL: String?) {
        var node = start
        while let current = node {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { output += String(cString: content) }
            case XML_ELEMENT_NODE:
                let name = current.pointee.name.map { String(cString: $0).lowercased() } ?? ""
                if droppedElements.contains(name) { break }
                let block = blockElements.contains(name)
                if block { output += "\n\n" } else if lineElements.contains(name) { output += "\n" }
                if name == "li" { output += "• " }
                walk(current.pointee.children, into: &output, links: &links, baseURL: baseURL)
                if links != nil, name == "a" || name == "img", let raw = xmlGetProp(current, name == "a" ? "href" : "src") {
                    let target = HTMLSanitizer.safeURL(String(cString: raw), baseURL: baseURL, allowData: false)
                    aggr_xml_free(raw)
                    if let target, !target.isEmpty {
                        if let known = links?.firstIndex(of: target) {
                            output += " [\(known + 1)]"
                        } else {
                            links?.append(target)
                            output += name == "img" ? "[image \(links?.count ?? 0)]" : " [\(links?.count ?? 0)]"
                        }
                    }
                }
                if block { output += "\n\n" }
            default:
                break
            }
            node = current.pointee.next
        }
    }

    /// Whether `text` has a tag or an entity reference; a bare "&" in plain text does not
    /// need the HTML parser.
    static func mayHoldMarkup(_ text: String) -> Bool {
        var previousWasAmpersand = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "<") { return true }
            if previousWasAmpersand, byte == UInt8(ascii: "#") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) {
                return true
            }
            previousWasAmpersand = byte == UInt8(ascii: "&")
        }
        return false
    }

    /// Collapses runs of spaces within lines and of blank lines between paragraphs.
    static func tidy(_ text: String) -> String {
        // One pass over the UTF-8 bytes: spaces, tabs, CR and U+00A0 (C2 A0) are white space.
        let bytes = text.utf8
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var space = false  // white space seen after a word on this line
        var lineHasText = false
        var blank = false  // an empty line seen since the last line with text
        var anyText = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            if byte == 0x0A {
                if lineHasText { lineHasText = false } else if anyText { blank = true }
                space = false
                continue
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                space = lineHasText
                continue
            }
            if byte == 0xC2, index != bytes.endIndex, bytes[index] == 0xA0 {
                index = bytes.index(after: index)
                space = lineHasText
                continue
            }
            if !lineHasText {
                if anyText { output.append(contentsOf: blank ? [0x0A, 0x0A] : [0x0A]) }
                (blank, lineHasText, anyText) = (false, true, true)
            } else if space {
                output.append(0x20)
            }
            space = false
            output.append(byte)
        }
        return String(decoding: output, as: UTF8.self)
    }
}
