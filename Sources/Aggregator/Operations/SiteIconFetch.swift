import Foundation

/// Fetches a site's icon once so front ends can serve it themselves: the icon the site's
/// home page links (`<link rel="icon">`, `shortcut icon`, `apple-touch-icon`), else
/// `/favicon.ico`.
///
/// Only raster images are kept, recognised by their bytes (PNG, GIF, JPEG, ICO, WebP): an
/// SVG can carry script, and a site's error page answered with 200 is no icon. The requests
/// carry no cookie or token.
public struct SiteIconFetch: Sendable {
    public var http: any HTTPClient
    /// The largest icon kept.
    public static let maximumBytes = 256 * 1_024

    public init(http: any HTTPClient) {
        self.http = http
    }

    /// The icon of the site at origin `site` (`https://host[:port]`), or a ``SiteIcon``
    /// without an image when it has none that aggr can serve.
    public func fetch(site: String, now: Date) async -> SiteIcon {
        var candidates: [String] = []
        if let page = try? await http.send(HTTPRequest(url: site + "/", headers: [("Accept", "text/html")])),
            (200..<300).contains(page.status)
        {
            candidates = Self.linkedIcons(in: page.body, pageURL: page.url)
        }
        candidates.append(site + "/favicon.ico")
        var tried: Set<String> = []
        for url in candidates where tried.insert(url).inserted && WebURL.isHTTP(url) {
            guard let response = try? await http.send(HTTPRequest(url: url, headers: [("Accept", "image/*")])),
                (200..<300).contains(response.status), response.body.count <= Self.maximumBytes,
                let type = Self.imageType(of: response.body)
            else { continue }
            return SiteIcon(site: site, contentType: type, data: response.body, fetchedAt: now)
        }
        return SiteIcon(site: site, contentType: nil, data: [], fetchedAt: now)
    }

    /// The icons a page links, resolved against it: sized ones nearest 32 px first, then
    /// the rest in page order.
    public static func linkedIcons(in body: [UInt8], pageURL: String) -> [String] {
        guard let document = try? MarkupDocument.html(body, url: pageURL),
            let links = try? document.select(css: "link[rel]")
        else { return [] }
        var found: [(url: String, distance: Int, order: Int)] = []
        for (order, link) in links.enumerated() {
            let relations = (link.attribute("rel") ?? "").lowercased().split(separator: " ")
            guard relations.contains("icon") || relations.contains("apple-touch-icon"),
                let href = link.attribute("href")?.trimmingCharacters(in: .whitespaces), !href.isEmpty,
                let url = URL(string: href, relativeTo: URL(string: pageURL))?.absoluteURL.absoluteString
            else { continue }
            // "32x32 64x64": the size nearest 32; none given counts as a fair guess (32).
            let sizes = (link.attribute("sizes") ?? "").lowercased().split(separator: " ").compactMap {
                $0.split(separator: "x").first.flatMap { Int($0) }
            }
            let distance = sizes.map { abs($0 - 32) }.min() ?? (relations.contains("apple-touch-icon") ? 148 : 0)
            found.append((url, distance, order))
        }
        return found.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.map(\.url)
    }

    /// The media type of `bytes` when they are an image aggr serves, else nil.
    public static func imageType(of bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x00, 0x00, 0x01, 0x00]), bytes.count > 6 { return "image/x-icon" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }
}
