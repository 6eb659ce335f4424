import Aggregator
import Foundation

/// Escaping for every string put into a page: upstream text never reaches the browser as
/// markup.
enum HTML {
    /// `text` escaped for element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        HTMLSanitizer.escape(text)
    }

    /// `value` percent-encoded for a query string.
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `/path?name=value&…` with the pairs encoded (empty values left out).
    static func link(_ path: String, _ pairs: [(String, String?)]) -> String {
        let query = pairs.compactMap { pair in pair.1.flatMap { $0.isEmpty ? nil : "\(pair.0)=\(queryValue($0))" } }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// An http(s) URL of an upstream image or link, or nil (no `javascript:`, no `data:`).
    static func webURL(_ text: String?) -> String? {
        guard let text, WebURL.isHTTP(text) else { return nil }
        return text
    }
}
