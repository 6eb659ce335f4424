import Aggregator
import Foundation

/// `/feeds/all.atom|json`, `/feeds/view/<name>.…`, `/feeds/provider/<id>.…`,
/// `/feeds/saved.…` (what the user signed in saved), `/feeds/search.atom?q=…` and `/opml`: the merged timeline for feed readers, with
/// ETag and Last-Modified so an unchanged feed costs a 304.
struct FeedEndpoint {
    var site: WebSite
    var now: Date

    /// Items per feed (`?limit=` up to 500).
    static let defaultLimit = 50

    func respond(to request: WebRequest) throws -> WebResponse {
        let session = site.session
        let configuration = session.configuration
        let limit = min(500, max(1, Int(request.parameter("limit") ?? "") ?? Self.defaultLimit))
        if request.path == "/opml" { return subscriptions(request) }
        let path = request.path.dropFirst("/feeds/".count)
        let format: TimelineDocument.Format
        let stem: Substring
        if path.hasSuffix(".atom") {
            format = .atom
            stem = path.dropLast(5)
        } else if path.hasSuffix(".json") {
            format = .jsonfeed
            stem = path.dropLast(5)
        } else {
            return .text(localized("feeds end in .atom or .json\n"), status: 404)
        }
        let tab: TimelineTab
        var title = "aggr"
        if stem == "all" {
            tab = .all
        } else if stem == "saved" {
            tab = .saved
            // verbatim: a served feed's title: data, the same in every language
            title = "aggr: saved"
        } else if stem.hasPrefix("view/") {
            tab = .view(String(stem.dropFirst(5)))
            title = "aggr: \(stem.dropFirst(5))"
        } else if stem.hasPrefix("provider/") {
            tab = .provider(String(stem.dropFirst(9)))
            title = "aggr: \(stem.dropFirst(9))"
        } else if stem == "search" {
            guard let text = request.parameter("q") else { return .text("search feeds need ?q=words\n", status: 400) }
            let items = try session.page(.init(tab: .all, search: text, limit: limit)).items
            let body = TimelineDocument.render(
                // verbatim: a served feed's title: data, the same in every language
                items, as: format, configuration: configuration, title: "aggr: search \(text)", sanitized: true, now: now)
            return document(body, format: format, items: items, request: request)
        } else {
            return .text(localized("no feed at \(request.path)\n"), status: 404)
        }
        let items: [StoredItem]
        do {
            items = try session.page(.init(tab: tab, limit: limit)).items
        } catch is UnknownTabError {
            return .text(localized("no view or provider \"\(tab.label)\" in \(configuration.file)\n"), status: 404)
        }
        let body = TimelineDocument.render(items, as: format, configuration: configuration, title: title, sanitized: true, now: now)
        return document(body, format: format, items: items, request: request)
    }

    /// `/opml`: the subscriptions, one folder per provider (``LibrarySession/subscriptionOPML(base:)``),
    /// feeds aggr serves at the address the request came to.
    func subscriptions(_ request: WebRequest) -> WebResponse {
        let body = site.session.subscriptionOPML(base: request.origin)
        return WebResponse(
            status: 200, headers: [("Content-Type", TimelineDocument.Format.opml.contentType), ("Cache-Control", "no-cache")],
            body: Array(body.utf8))
    }

    /// `body` with validators; a 304 when the reader already has it.
    func document(_ body: String, format: TimelineDocument.Format, items: [StoredItem], request: WebRequest) -> WebResponse {
        let bytes = Array(body.utf8)
        let tag = "\"\(BodyHash.hex(bytes).prefix(32))\""
        let newest = items.map(\.firstSeen).max() ?? Date(timeIntervalSince1970: 0)
        let modified = HTTPDate.format(newest)
        var headers = [("ETag", tag), ("Last-Modified", modified), ("Cache-Control", "no-cache")]
        if let match = request.header("If-None-Match") {
            // Weak comparison (RFC 9110 §13.1.2): readers and proxies send `W/"…"` back.
            let candidates = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if candidates.contains(where: { $0 == tag || $0 == "W/" + tag || $0 == "*" }) {
                return WebResponse(status: 304, headers: headers)
            }
        } else if let since = request.header("If-Modified-Since").flatMap({ UpstreamDate.parse($0) }),
            floor(newest.timeIntervalSince1970) <= since.timeIntervalSince1970
        {
            return WebResponse(status: 304, headers: headers)
        }
        headers.append(("Content-Type", format.contentType))
        return WebResponse(status: 200, headers: headers, body: bytes)
    }
}

/// IMF-fixdate, as HTTP's Last-Modified wants (`Sun, 22 Nov 2026 08:00:00 GMT`).
enum HTTPDate {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
