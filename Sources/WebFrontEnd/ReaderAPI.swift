import Aggregator
import Foundation

/// The Google Reader API that reader apps (NetNewsWire, Reeder, FeedMe, Fluent Reader,
/// Read You…) sync with: `/accounts/ClientLogin` and `/reader/api/0/…`.
///
/// One user; any user name, the `serve.password_env` password. The auth token is an HMAC
/// of the password keyed with the installation's secret (``ServeKeys``), so it survives
/// restarts, dies with a password change or `aggr serve --rotate-tokens`, and differs
/// between installations sharing a password. Subscriptions
/// are provider sections, labels are views and providers, item ids are aggr's item numbers
/// (stable across refreshes and restarts). Read and starred are aggr's read and saved.
struct ReaderAPI {
    var site: WebSite
    var now: Date

    /// The most ids or items one call returns.
    static let maximumCount = 10_000
    /// The most items one `stream/items/contents` call names (clients ask for 100–250 at a
    /// time; 20,000 took seconds and held a worker).
    static let maximumContents = 1_000
    /// Excludes starred items (`xt=…/starred`).
    static let notSaved: FilterExpression = {
        do {
            return try FilterParser.parse("not saved")
        } catch {
            preconditionFailure("the filter language lost its saved field: \(error)")
        }
    }()

    func respond(to request: WebRequest) throws -> WebResponse {
        let keys = try site.keys()
        if request.path == "/accounts/ClientLogin" { return login(request, keys: keys) }
        guard authorized(request, keys: keys) else {
            return WebResponse.text("Unauthorized\n", status: 401).adding("Google-Bad-Token", "true")
        }
        let endpoint = String(request.path.dropFirst("/reader/api/0/".count))
        switch (request.method, endpoint) {
        case ("GET", "token"): return .text(keys.readerAction + "\n", status: 200)
        case ("GET", "user-info"): return json { writer in userInfo(&writer) }
        case ("GET", "subscription/list"): return try json { writer in try subscriptions(&writer) }
        case ("GET", "tag/list"): return json { writer in tags(&writer) }
        case ("GET", "unread-count"): return try json { writer in try unreadCounts(&writer) }
        case ("GET", "stream/items/ids"): return try itemIDs(request)
        case ("GET", "stream/items/contents"), ("POST", "stream/items/contents"): return try contents(request, ids: requestIDs(request))
        case ("POST", "edit-tag"): return try editTag(request, keys: keys)
        case ("POST", "mark-all-as-read"): return try markAllRead(request, keys: keys)
        default:
            if endpoint.hasPrefix("stream/contents"), request.method == "GET" || request.method == "POST" {
                return try streamContents(request, stream: String(endpoint.dropFirst("stream/contents".count).drop { $0 == "/" }))
            }
            return .text("unknown reader API call \(request.method) /reader/api/0/\(endpoint)\n", status: 404)
        }
    }

    // MARK: Auth

    func authorized(_ request: WebRequest, keys: ServeKeys) -> Bool {
        guard let header = request.header("Authorization") else { return false }
        let parts = header.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "googlelogin auth" else { return false }
        return SessionBook.constantTimeEqual(String(parts[1]).trimmingCharacters(in: .whitespaces), keys.readerAuth)
    }

    /// `POST /accounts/ClientLogin` with `Email` and `Passwd` (form or query).
    func login(_ request: WebRequest, keys: ServeKeys) -> WebResponse {
        let fields = request.form + request.query
        guard let password = fields.first(where: { $0.0 == "Passwd" })?.1 else {
            return .text("Error=BadAuthentication\nInfo=Passwd is missing\n", status: 401)
        }
        switch site.checkPassword(password, client: request.client) {
        case .accepted:
            let token = keys.readerAuth
            return .text("SID=\(token)\nLSID=\(token)\nAuth=\(token)\n", status: 200)
        case .rejected:
            return .text("Error=BadAuthentication\n", status: 401)
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now)))
            return WebResponse.text("Error=BadAuthentication\nInfo=too many wrong passwords; retry in \(seconds) s\n", status: 429)
                .adding("Retry-After", String(seconds))
        }
    }

    /// A 400 unless a POST's `T` is the action token; an empty or missing `T` passes when the
    /// header auth is valid (FeedMe sends "", Fluent Reader none).
    func checkActionToken(_ request: WebRequest, keys: ServeKeys) -> WebResponse? {
        guard let token = request.field("T") ?? request.parameter("T"), !token.isEmpty else { return nil }
        return SessionBook.constantTimeEqual(token, keys.readerAction)
            ? nil : WebResponse.text("bad T token\n", status: 401).adding("X-Reader-Google-Bad-Token", "true")
    }

    // MARK: Lists

    func json(_ build: (inout JSONWriter) throws -> Void) rethrows -> WebResponse {
        var writer = JSONWriter()
        try build(&writer)
        return .text(writer.output, status: 200, contentType: "application/json; charset=utf-8")
    }

    func userInfo(_ writer: inout JSONWriter) {
        writer.beginObject()
        for (key, value) in [("userId", "1"), ("userName", "aggr"), ("userProfileId", "1"), ("userEmail", "")] {
            writer.key(key)
            writer.string(value)
        }
        writer.endObject()
    }

    /// Provider sections, stored or configured, each labelled with its provider.
    func sectionList() throws -> [SectionSummary] {
        let configuration = site.configuration
        var stored = try site.store.sections().filter { configuration.provider(id: $0.provider) != nil }
        for entry in configuration.providers {
            for spec in entry.sections where !stored.contains(where: { $0.provider == entry.id && $0.key == spec.key }) {
                stored.append(SectionSummary(provider: entry.id, key: spec.key, title: "\(entry.id) \(spec.key)"))
            }
        }
        return stored
    }

    func subscriptions(_ writer: inout JSONWriter) throws {
        let configuration = site.configuration
        writer.beginObject()
        writer.key("subscriptions")
        writer.beginArray()
        for section in try sectionList() {
            let entry = configuration.provider(id: section.provider)
            writer.beginObject()
            writer.key("id")
            writer.string(ReaderStream.subscriptionID(provider: section.provider, section: section.key))
            writer.key("title")
            writer.string(section.title)
            writer.key("categories")
            writer.beginArray()
            writer.beginObject()
            writer.key("id")
            writer.string("user/-/label/\(section.provider)")
            writer.key("label")
            writer.string(section.provider)
            writer.endObject()
            writer.endArray()
            let feedURL = section.key.hasPrefix("url/") ? String(section.key.dropFirst(4)) : entry?.stringOption("url")
            writer.key("url")
            writer.string(SecretRedactor.redact(url: feedURL ?? ""))
            writer.key("htmlUrl")
            writer.string(entry?.webURL ?? "")
            writer.key("iconUrl")
            writer.string("")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    func tags(_ writer: inout JSONWriter) {
        let configuration = site.configuration
        writer.beginObject()
        writer.key("tags")
        writer.beginArray()
        writer.beginObject()
        writer.key("id")
        writer.string(ReaderStream.starredID)
        writer.endObject()
        for name in configuration.views.map(\.name) + configuration.providers.map(\.id) {
            writer.beginObject()
            writer.key("id")
            writer.string("user/-/label/\(name)")
            writer.key("type")
            writer.string("folder")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    func unreadCounts(_ writer: inout JSONWriter) throws {
        let configuration = site.configuration
        let sections = try sectionList()
        var rows: [(String, Int, Date?)] = sections.map {
            (ReaderStream.subscriptionID(provider: $0.provider, section: $0.key), $0.unread, $0.newestUnread)
        }
        for entry in configuration.providers {
            let own = sections.filter { $0.provider == entry.id }
            rows.append(("user/-/label/\(entry.id)", own.reduce(0) { $0 + $1.unread }, own.compactMap(\.newestUnread).max()))
        }
        for view in configuration.views {
            guard var query = ReaderStream.label(view.name).query(in: configuration, now: now) else { continue }
            query.unreadOnly = true
            rows.append(("user/-/label/\(view.name)", try site.store.count(query, cap: Self.maximumCount), nil))
        }
        rows.append((ReaderStream.readingListID, sections.reduce(0) { $0 + $1.unread }, sections.compactMap(\.newestUnread).max()))
        writer.beginObject()
        writer.key("max")
        writer.integer(Self.maximumCount)
        writer.key("unreadcounts")
        writer.beginArray()
        for (id, count, newest) in rows where count > 0 {
            writer.beginObject()
            writer.key("id")
            writer.string(id)
            writer.key("count")
            writer.integer(count)
            writer.key("newestItemTimestampUsec")
            writer.string(String(Int64((newest ?? now).timeIntervalSince1970 * 1_000_000)))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    // MARK: Streams

    /// The query for `s` (or `stream`) with `xt`, `it`, `ot`, `nt`, `r`, `n` and `c` applied.
    func streamQuery(_ request: WebRequest, stream text: String?) throws(ReaderRequestError) -> (ReaderStream, TimelineQuery) {
        let configuration = site.configuration
        let id = text ?? request.parameter("s") ?? ReaderStream.readingListID
        guard let stream = ReaderStream(id), var query = stream.query(in: configuration, now: now) else {
            throw ReaderRequestError("unknown stream \"\(id)\"")
        }
        for exclude in request.parameters("xt") {
            switch ReaderStream.normalized(exclude) {
            case ReaderStream.readID: query.unreadOnly = true
            case ReaderStream.starredID: query.filters.append(Self.notSaved)
            default: throw ReaderRequestError("xt: cannot exclude \"\(exclude)\" (read or starred)")
            }
        }
        for include in request.parameters("it") {
            switch ReaderStream.normalized(include) {
            case ReaderStream.readID: query.readOnly = true
            case ReaderStream.starredID: query.savedOnly = true
            default: throw ReaderRequestError("it: cannot filter on \"\(include)\" (read or starred)")
            }
        }
        if let older = request.parameter("ot") {
            guard let seconds = Int64(older), seconds >= 0 else { throw ReaderRequestError("ot: \"\(older)\" is not a unix time") }
            query.since = Date(timeIntervalSince1970: Double(seconds))
        }
        if let newer = request.parameter("nt") {
            guard let seconds = Int64(newer), seconds >= 0 else { throw ReaderRequestError("nt: \"\(newer)\" is not a unix time") }
            query.before = Date(timeIntervalSince1970: Double(seconds))
        }
        if let order = request.parameter("r") {
            guard ["d", "n", "o"].contains(order) else { throw ReaderRequestError("r: \"\(order)\" is not d, n or o") }
            query.oldestFirst = order == "o"
        }
        let count = request.parameter("n").map { Int($0) } ?? 20
        guard let count, (1...Self.maximumCount).contains(count) else {
            throw ReaderRequestError("n: a number from 1 to \(Self.maximumCount)")
        }
        query.limit = count
        if let continuation = request.parameter("c") {
            guard let cursor = TimelineCursor(token: continuation) else {
                throw ReaderRequestError("c: not a continuation this server gave")
            }
            query.cursor = cursor
        }
        return (stream, query)
    }

    func itemIDs(_ request: WebRequest) throws -> WebResponse {
        let (_, query): (ReaderStream, TimelineQuery)
        do {
            (_, query) = try streamQuery(request, stream: nil)
        } catch {
            return .text("\(error.message)\n", status: 400)
        }
        let page = try site.store.timeline(query)
        return json { writer in
            writer.beginObject()
            writer.key("itemRefs")
            writer.beginArray()
            for stored in page.items {
                writer.beginObject()
                writer.key("id")
                writer.string(String(stored.ref))
                writer.key("directStreamIds")
                writer.beginArray()
                writer.endArray()
                writer.key("timestampUsec")
                writer.string(String(Int64(stored.item.published.timeIntervalSince1970 * 1_000_000)))
                writer.endObject()
            }
            writer.endArray()
            if let next = page.nextCursor {
                writer.key("continuation")
                writer.string(next.description)
            }
            writer.endObject()
        }
    }

    func streamContents(_ request: WebRequest, stream: String) throws -> WebResponse {
        let (resolved, query): (ReaderStream, TimelineQuery)
        do {
            (resolved, query) = try streamQuery(request, stream: stream.isEmpty ? nil : stream.removingPercentEncoding ?? stream)
        } catch {
            return .text("\(error.message)\n", status: 400)
        }
        let page = try site.store.timeline(query)
        return itemsDocument(page.items, streamID: resolved.id, continuation: page.nextCursor?.description)
    }

    /// The ids of `i=` (form and query), or a 400 naming the first bad one.
    func requestIDs(_ request: WebRequest) throws(ReaderRequestError) -> [Int64] {
        let values = request.form.filter { $0.0 == "i" }.map(\.1) + request.parameters("i")
        guard !values.isEmpty else { throw ReaderRequestError("i: name at least one item") }
        return try values.map { value throws(ReaderRequestError) in
            guard let ref = ReaderItemID.parse(value) else { throw ReaderRequestError("i: \"\(value)\" is not an item id") }
            return ref
        }
    }

    func contents(_ request: WebRequest, ids: @autoclosure () throws(ReaderRequestError) -> [Int64]) throws -> WebResponse {
        let refs: [Int64]
        do {
            refs = try ids()
        } catch {
            return .text("\(error.message)\n", status: 400)
        }
        guard refs.count <= Self.maximumContents else {
            return .text("i: at most \(Self.maximumContents) items per request (got \(refs.count)); ask in batches\n", status: 400)
        }
        let items = try site.store.items(refs: refs)
        return itemsDocument(items, streamID: ReaderStream.readingListID, continuation: nil)
    }

    func itemsDocument(_ items: [StoredItem], streamID: String, continuation: String?) -> WebResponse {
        json { writer in
            writer.beginObject()
            writer.key("id")
            writer.string(streamID)
            writer.key("updated")
            writer.integer(Int(now.timeIntervalSince1970))
            writer.key("items")
            writer.beginArray()
            for stored in items { item(stored, to: &writer) }
            writer.endArray()
            if let continuation {
                writer.key("continuation")
                writer.string(continuation)
            }
            writer.endObject()
        }
    }

    func item(_ stored: StoredItem, to writer: inout JSONWriter) {
        let item = stored.item
        writer.beginObject()
        writer.key("id")
        writer.string(ReaderItemID.long(stored.ref))
        writer.key("crawlTimeMsec")
        writer.string(String(Int64(stored.firstSeen.timeIntervalSince1970 * 1_000)))
        writer.key("timestampUsec")
        writer.string(String(Int64(item.published.timeIntervalSince1970 * 1_000_000)))
        writer.key("published")
        writer.integer(Int(item.published.timeIntervalSince1970))
        writer.key("updated")
        writer.integer(Int((item.updated ?? item.published).timeIntervalSince1970))
        // Titles and names as HTML text, as FreshRSS sends them: apps render them as HTML.
        writer.key("title")
        writer.string(HTMLSanitizer.escape(item.title))
        // `canonical` carries `href` alone, as FreshRSS and miniflux send it: the PyPI
        // google-reader client builds its link type from those fields and fails on `type`.
        for key in ["canonical", "alternate"] {
            writer.key(key)
            writer.beginArray()
            writer.beginObject()
            writer.key("href")
            writer.string(item.url)
            if key == "alternate" {
                writer.key("type")
                writer.string("text/html")
            }
            writer.endObject()
            writer.endArray()
        }
        writer.key("categories")
        writer.beginArray()
        var categories = [ReaderStream.readingListID, "user/-/label/\(item.provider)"]
        if stored.readAt != nil { categories.append(ReaderStream.readID) }
        if stored.savedAt != nil { categories.append(ReaderStream.starredID) }
        for category in categories { writer.string(category) }
        writer.endArray()
        writer.key("origin")
        writer.beginObject()
        writer.key("streamId")
        writer.string(ReaderStream.subscriptionID(provider: item.provider, section: item.section))
        writer.key("title")
        writer.string(HTMLSanitizer.escape(stored.sectionTitle ?? item.provider))
        writer.key("htmlUrl")
        writer.string(site.configuration.provider(id: item.provider)?.webURL ?? "")
        writer.endObject()
        writer.key("summary")
        writer.beginObject()
        writer.key("direction")
        writer.string("ltr")
        writer.key("content")
        var html = item.content.map { HTMLSanitizer.sanitize($0, baseURL: item.url) } ?? HTMLSanitizer.escape(item.summary)
        if let image = item.image, WebURL.isHTTP(image), !html.contains(image) {
            html = "<p><img src=\"\(HTMLSanitizer.escape(image))\" referrerpolicy=\"no-referrer\"></p>" + html
        }
        writer.string(html)
        writer.endObject()
        writer.key("author")
        writer.string(HTMLSanitizer.escape(item.author?.name ?? ""))
        writer.endObject()
    }

    // MARK: Changes

    /// States clients send beside the ones aggr keeps, accepted and not kept, as FreshRSS
    /// does: newsboat marks unread with `kept-unread` plus `tracking-kept-unread`, and apps
    /// send `like` and `broadcast` (sharing) with a star.
    static let ignoredTags: Set<String> = [
        "user/-/state/com.google/tracking-kept-unread", "user/-/state/com.google/tracking-body-link-used",
        "user/-/state/com.google/tracking-emailed", "user/-/state/com.google/tracking-item-link-used",
        "user/-/state/com.google/like", "user/-/state/com.google/broadcast", "user/-/state/com.google/broadcast-friends",
    ]

    /// `POST edit-tag`: `a`/`r` of read, kept-unread and starred for every `i`.
    func editTag(_ request: WebRequest, keys: ServeKeys) throws -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let refs: [Int64]
        do {
            refs = try requestIDs(request)
        } catch {
            return .text("\(error.message)\n", status: 400)
        }
        let form = request.form + request.query
        let added = form.filter { $0.0 == "a" }.map { ReaderStream.normalized($0.1) }
        let removed = form.filter { $0.0 == "r" }.map { ReaderStream.normalized($0.1) }
        guard !added.isEmpty || !removed.isEmpty else { return .text("name a tag to add (a=) or remove (r=)\n", status: 400) }
        let known = [ReaderStream.readID, ReaderStream.starredID, ReaderStream.keptUnreadID]
        let (adding, removing) = (added.filter { !Self.ignoredTags.contains($0) }, removed.filter { !Self.ignoredTags.contains($0) })
        if let unknown = (adding + removing).first(where: { !known.contains($0) }) {
            return .text("cannot set \"\(unknown)\": read and starred are the states aggr keeps\n", status: 400)
        }
        let stored = Set(try site.store.items(refs: refs).map(\.ref))
        let missing = refs.filter { !stored.contains($0) }
        guard missing.isEmpty else { return .text("no item \(missing[0])\n", status: 404) }
        for tag in adding {
            switch tag {
            case ReaderStream.readID: try site.store.markRead(refs: refs, read: true, now: now)
            case ReaderStream.keptUnreadID: try site.store.markRead(refs: refs, read: false, now: now)
            default: try site.store.markSaved(refs: refs, saved: true, now: now)
            }
        }
        for tag in removing {
            switch tag {
            case ReaderStream.readID: try site.store.markRead(refs: refs, read: false, now: now)
            case ReaderStream.keptUnreadID: break
            default: try site.store.markSaved(refs: refs, saved: false, now: now)
            }
        }
        return .text("OK", status: 200)
    }

    /// `POST mark-all-as-read`: `s` (a stream), `ts` (only items published up to then, µs).
    func markAllRead(_ request: WebRequest, keys: ServeKeys) throws -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let form = request.form + request.query
        guard let streamText = form.first(where: { $0.0 == "s" })?.1 else { return .text("s: name the stream to mark read\n", status: 400) }
        guard let stream = ReaderStream(streamText), var query = stream.query(in: site.configuration, now: now) else {
            return .text("unknown stream \"\(streamText)\"\n", status: 400)
        }
        if let stamp = form.first(where: { $0.0 == "ts" })?.1, !stamp.isEmpty {
            guard let micros = Int64(stamp), micros >= 0 else {
                return .text("ts: \"\(stamp)\" is not a time in microseconds\n", status: 400)
            }
            query.before = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
        }
        try site.store.markRead(matching: query, now: now)
        return .text("OK", status: 200)
    }
}

/// A malformed reader-API request, answered with 400 and this message.
struct ReaderRequestError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
