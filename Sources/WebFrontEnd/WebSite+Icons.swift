import Aggregator
import Foundation

/// Sites' icons served from aggr, so pages and reader apps show them without asking the
/// sites: `/favicons/<provider>`.
extension WebSite {
    /// Provider `id`'s site icon (fetched once and kept), else a letter drawn for it.
    ///
    /// Open like the stylesheet: an icon is a public site's, and only configured sites are
    /// ever asked (FreshRSS serves its favicons the same way).
    func siteIcon(_ encoded: String, request: WebRequest) async -> WebResponse {
        let id = encoded.removingPercentEncoding ?? encoded
        guard configuration.provider(id: id) != nil else {
            return .text(localized("no provider \"\(TerminalText.sanitize(id))\" in providers.json\n"), status: 404)
        }
        if let icon = await session.siteIcon(ofProvider: id), let type = icon.contentType {
            return WebResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "max-age=86400")], body: icon.data)
        }
        return WebResponse(
            status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "max-age=3600")],
            body: Array(Self.letterIcon(for: id).utf8))
    }

    /// A 16 px square with the first letter of `name`, for a site without an icon.
    static func letterIcon(for name: String) -> String {
        let letter = HTMLSanitizer.escape(name.first.map { String($0).uppercased() } ?? "?")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">\
            <rect width="16" height="16" rx="3" fill="#7b8494"/>\
            <text x="8" y="12" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#fff">\(letter)</text></svg>
            """
    }
}
