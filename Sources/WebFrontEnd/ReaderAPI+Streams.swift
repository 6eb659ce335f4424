import Aggregator
import Foundation

/// Streams of items: ids, contents by stream and by id, and each item as reader apps read it.
extension ReaderAPI {
    /// The items `stream` lists (subscriptions only), or nil for a stream that names nothing.
    func baseQuery(_ stream: ReaderStream) -> TimelineQuery? { stream.query(in: session) }

    /// The query for `s` (or `stream`) with `xt`, `it`, `ot`, `nt`, `r`, `n` and `c` applied.
    func streamQuery(_ request: WebRequest, stream text: String?) throws(ReaderRequestError) -> (ReaderStream, TimelineQuery) {
        let id = text ?? request.parameter("s") ?? ReaderStream.readingListID
        guard let stream = ReaderStream(id), var query = baseQuery(stream) else {
            throw ReaderRequestError(localized("unknown stream \"\(id)\""))
        }
        for exclude in request.parameters("xt") {
            switch ReaderStream.normalized(exclude) {
            case ReaderStream.readID: query.unreadOnly = true
            case ReaderStream.starredID: query.unsavedOnly = true
            default: throw ReaderRequestError(localized("xt: cannot exclude \"\(exclude)\" (read or starred)"))
            }
        }
        for include in request.parameters("it") {
            switch ReaderStream.normalized(include) {
            case ReaderStream.readID: query.readOnly = true
            case ReaderStream.starredID: query.savedOnly = true
            default: throw ReaderRequestError(localized("it: cannot filter on \"\(include)\" (read or starred)"))
            }
        }
        // `ot`/`nt` bound when an item reached aggr, as FreshRSS bounds its entry ids: a
        // client syncing "since my last sync" gets an item published long ago but fetched
        // since then.
        if let older = request.parameter("ot") {
            guard let seconds = Int64(older), seconds >= 0 else {
                throw ReaderRequestError(localized("ot: \"\(older)\" is not a unix time"))
            }
            query.storedSince = Date(timeIntervalSince1970: Double(seconds))
        }
        if let newer = request.parameter("nt") {
            guard let seconds = Int64(newer), seconds >= 0 else {
                throw ReaderRequestError(localized("nt: \"\(newer)\" is not a unix time"))
            }
            query.storedBefore = Date(timeIntervalSince1970: Double(seconds))
        }
        if let order = request.parameter("r") {
            guard ["d", "n", "o"].contains(order) else { throw ReaderRequestError(localized("r: \"\(order)\" is not d, n or o")) }
            query.oldestFirst = order == "o"
        }
        let count = request.parameter("n").map { Int($0) } ?? 20
        guard let count, (1...Self.maximumCount).contains(count) else {
            throw ReaderRequestError(localized("n: a number from 1 to \(Self.maximumCount)"))
        }
        query.limit = count
        if let continuation = request.parameter("c") {
            guard let cursor = TimelineCursor(token: continuation) else {
                throw ReaderRequestError(localized("c: not a continuation this server gave"))
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
        let page = try session.positions(query)
        return json { writer in
            writer.beginObject()
            writer.key("itemRefs")
            writer.beginArray()
            for position in page.positions {
                writer.beginObject()
                writer.key("id")
                writer.string(String(position.ref))
                writer.key("directStreamIds")
                writer.beginArray()
                writer.endArray()
                writer.key("timestampUsec")
                writer.string(ReaderItemID.timestamp(position.published))
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

    /// The page a stream request asks for: the stream named in the path (percent-encoded)
    /// or by `s`, with the request's parameters; a malformed one throws ``ReaderRequestError``.
    func streamPage(_ request: WebRequest, stream: String) throws -> (ReaderStream, TimelinePage) {
        let (resolved, query) = try streamQuery(request, stream: stream.isEmpty ? nil : stream.removingPercentEncoding ?? stream)
        return (resolved, try session.timeline(query))
    }

    func streamContents(_ request: WebRequest, stream: String) throws -> WebResponse {
        let (resolved, page): (ReaderStream, TimelinePage)
        do {
            (resolved, page) = try streamPage(request, stream: stream)
        } catch let error as ReaderRequestError {
            return .text("\(error.message)\n", status: 400)
        }
        return try itemsDocument(page.items, streamID: resolved.id, continuation: page.nextCursor?.description)
    }

    /// The ids of `i=` (form and query), or a 400 naming the first bad one.
    func requestIDs(_ request: WebRequest) throws(ReaderRequestError) -> [Int64] {
        let values = request.form.filter { $0.0 == "i" }.map(\.1) + request.parameters("i")
        guard !values.isEmpty else { throw ReaderRequestError(localized("i: name at least one item")) }
        return try values.map { value throws(ReaderRequestError) in
            guard let ref = ReaderItemID.parse(value) else { throw ReaderRequestError(localized("i: \"\(value)\" is not an item id")) }
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
            return .text(
                localized("i: at most \(Self.maximumContents) items per request (got \(refs.count)); ask in batches\n"), status: 400)
        }
        let items = try session.items(refs: refs)
        return try itemsDocument(items, streamID: ReaderStream.readingListID, continuation: nil)
    }

    func itemsDocument(_ items: [StoredItem], streamID: String, continuation: String?) throws -> WebResponse {
        let labels = try session.labels(of: items.map(\.ref))
        return json { writer in
            writer.beginObject()
            writer.key("id")
            writer.string(streamID)
            writer.key("updated")
            writer.integer(Int(now.timeIntervalSince1970))
            writer.key("items")
            writer.beginArray()
            for stored in items { item(stored, labels: labels[stored.ref] ?? [], to: &writer) }
            writer.endArray()
            if let continuation {
                writer.key("continuation")
                writer.string(continuation)
            }
            writer.endObject()
        }
    }

    func item(_ stored: StoredItem, labels: [String], to writer: inout JSONWriter) {
        let item = stored.item
        writer.beginObject()
        writer.key("id")
        writer.string(ReaderItemID.long(stored.ref))
        writer.key("crawlTimeMsec")
        writer.string(String(Int64(stored.firstSeen.timeIntervalSince1970 * 1_000)))
        writer.key("timestampUsec")
        writer.string(ReaderItemID.timestamp(item.published))
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
        categories += labels.map { "user/-/label/\($0)" }
        for category in categories { writer.string(category) }
        writer.endArray()
        writer.key("origin")
        writer.beginObject()
        writer.key("streamId")
        writer.string(ReaderStream.subscriptionID(provider: item.provider, section: item.section))
        writer.key("title")
        writer.string(
            HTMLSanitizer.escape(
                session.title(of: SubscriptionName(provider: item.provider, section: item.section), stored: stored.sectionTitle)))
        writer.key("htmlUrl")
        writer.string(session.siteURL(of: item.provider) ?? "")
        writer.endObject()
        writer.key("summary")
        writer.beginObject()
        writer.key("direction")
        writer.string("ltr")
        writer.key("content")
        writer.string(Self.contentHTML(of: item))
        writer.endObject()
        writer.key("author")
        writer.string(HTMLSanitizer.escape(item.author?.name ?? ""))
        writer.endObject()
    }

    /// An item's text as the HTML apps show: its content allowlist-sanitized (else its
    /// summary escaped), its image first when the text does not show it.
    static func contentHTML(of item: Item) -> String {
        var html = item.content.map { HTMLSanitizer.sanitize($0, baseURL: item.url) } ?? HTMLSanitizer.escape(item.summary)
        if let image = item.image, WebURL.isHTTP(image), !html.contains(image) {
            html = "<p><img src=\"\(HTMLSanitizer.escape(image))\" referrerpolicy=\"no-referrer\"></p>" + html
        }
        return html
    }
}
