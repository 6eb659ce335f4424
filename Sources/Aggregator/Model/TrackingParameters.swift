import Foundation

/// Query parameters that only track who clicked (`utm_*`, `fbclid`, `gclid`…), removed
/// from the pages aggr reads and the links it shows.
public enum TrackingParameters {
    static let names: Set<String> = [
        "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "mc_cid", "mc_eid", "igshid", "yclid", "_hsenc", "_hsmi",
        "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "ref_src", "spm",
    ]

    static func isTracking(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("utm_") || names.contains(lowered)
    }

    /// `url` without tracking parameters (unchanged when it has none or does not parse).
    public static func removed(from url: String) -> String {
        guard url.utf8.contains(UInt8(ascii: "?")), var components = URLComponents(string: url), let items = components.queryItems else {
            return url
        }
        let kept = items.filter { !isTracking($0.name) }
        guard kept.count != items.count else { return url }
        components.queryItems = kept.isEmpty ? nil : kept
        return components.string ?? url
    }

    /// `html` with tracking parameters removed from every `href="…"` and `src="…"`.
    public static func removed(fromLinksIn html: String) -> String {
        guard html.contains("utm_") || names.contains(where: { html.contains($0 + "=") }) else { return html }
        var output = ""
        var rest = html[...]
        while let range = rest.range(of: #"(href|src)="[^"]*""#, options: .regularExpression) {
            output += rest[..<range.lowerBound]
            let attribute = rest[range]
            guard let quote = attribute.firstIndex(of: "\"") else { break }
            let name = attribute[..<quote]
            let value = String(attribute[attribute.index(after: quote)..<attribute.index(before: attribute.endIndex)])
            // Values are HTML-escaped: `&amp;` between parameters.
            let unescaped = value.replacingOccurrences(of: "&amp;", with: "&")
            let cleaned = removed(from: unescaped)
            output += "\(name)\"\(cleaned == unescaped ? value : cleaned.replacingOccurrences(of: "&", with: "&amp;"))\""
            rest = rest[range.upperBound...]
        }
        return output + rest
    }
}
