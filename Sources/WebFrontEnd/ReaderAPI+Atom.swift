import Aggregator
import Foundation

/// Streams as Google Reader's Atom (`/reader/atom/<stream>`), which clients of FeedHQ and
/// The Old Reader read, newsboat's `feedhq` source among them.
extension ReaderAPI {
    /// The scheme of Google Reader's state categories; clients read the state's `label`.
    static let stateScheme = "http://www.google.com/reader/"

    /// `GET /reader/atom/<stream>`: the stream with the parameters of `stream/contents`
    /// (`n`, `xt`, `it`, `ot`, `nt`, `r`, `c`).
    func atomStream(_ request: WebRequest, stream: String) throws -> WebResponse {
        let (resolved, page): (ReaderStream, TimelinePage)
        do {
            (resolved, page) = try streamPage(request, stream: stream)
        } catch let error as ReaderRequestError {
            return .text("\(error.message)\n", status: 400)
        }
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        xml += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:gr=\"http://www.google.com/schemas/reader/atom/\">\n"
        xml += "<id>tag:google.com,2005:reader/\(XMLText.escape(resolved.id))</id>\n"
        xml += "<title>\(XMLText.escape(title(of: resolved)))</title>\n"
        xml += "<updated>\(ISOTimestamp.format(now))</updated>\n"
        if let next = page.nextCursor { xml += "<gr:continuation>\(XMLText.escape(next.description))</gr:continuation>\n" }
        let labels = try session.labels(of: page.items.map(\.ref))
        for stored in page.items { xml += atomEntry(stored, labels: labels[stored.ref] ?? []) }
        xml += "</feed>\n"
        return .text(xml, status: 200, contentType: "application/atom+xml; charset=utf-8")
    }

    /// A stream's title: its section's or label's name.
    func title(of stream: ReaderStream) -> String {
        switch stream {
        case .readingList: "aggr"
        case .starred: "aggr: starred"
        case .read: "aggr: read"
        case .subscription(let provider, let section): "\(provider) \(section)"
        case .label(let name): name
        }
    }

    /// One item as an Atom entry with its states as Google Reader categories.
    func atomEntry(_ stored: StoredItem, labels: [String]) -> String {
        let item = stored.item
        var entry = "<entry gr:crawl-timestamp-msec=\"\(Int64(stored.firstSeen.timeIntervalSince1970 * 1_000))\">\n"
        entry += "<id>\(ReaderItemID.long(stored.ref))</id>\n"
        entry += "<title type=\"html\">\(XMLText.escape(HTMLSanitizer.escape(item.title)))</title>\n"
        entry += "<published>\(ISOTimestamp.format(item.published))</published>\n"
        entry += "<updated>\(ISOTimestamp.format(item.updated ?? item.published))</updated>\n"
        entry += "<link rel=\"alternate\" href=\"\(XMLText.escape(item.url))\" type=\"text/html\"/>\n"
        var states = [("reading-list", ReaderStream.readingListID)]
        if stored.readAt != nil { states.append(("read", ReaderStream.readID)) }
        if stored.savedAt != nil { states.append(("starred", ReaderStream.starredID)) }
        for (label, term) in states {
            entry += "<category term=\"\(term)\" scheme=\"\(Self.stateScheme)\" label=\"\(label)\"/>\n"
        }
        for folder in [item.provider] + labels {
            entry += "<category term=\"user/-/label/\(XMLText.escape(folder))\" label=\"\(XMLText.escape(folder))\"/>\n"
        }
        entry += "<summary type=\"html\">\(XMLText.escape(Self.contentHTML(of: item)))</summary>\n"
        if let author = item.author?.name, !author.isEmpty { entry += "<author><name>\(XMLText.escape(author))</name></author>\n" }
        let source = ReaderStream.subscriptionID(provider: item.provider, section: item.section)
        entry += "<source gr:stream-id=\"\(XMLText.escape(source))\"><id>tag:google.com,2005:reader/\(XMLText.escape(source))</id>"
        entry +=
            "<title>\(XMLText.escape(session.title(of: SubscriptionName(provider: item.provider, section: item.section), stored: stored.sectionTitle)))</title></source>\n"
        entry += "</entry>\n"
        return entry
    }
}
