import Aggregator
import Foundation

/// The Fever API (`/fever/?api`, and FreshRSS's `/api/fever.php?api`), for the apps that
/// speak only it (Reeder classic, Unread, ReadKit, Fluent Reader, Fiery Feeds).
///
/// Every call carries `api_key`, the MD5 of `user:password` (`serve.user`, default `aggr`).
/// Groups are providers, feeds are subscriptions (a provider's sections), numbered by
/// ``FeverNumbers``; items are aggr's item numbers, which only grow, so `since_id` and
/// `max_id` page through them. Read and saved are aggr's read and saved.
struct FeverAPI {
    var session: LibrarySession
    /// Checks an `api_key` (throttled per client by the site).
    var checkKey: (_ given: String, _ client: String) -> WebSite.PasswordCheck
    var now: Date
    /// This server's origin as the app reached it, for aggr's own feed addresses.
    var base: String
    /// How many items the subscriptions hold (`total_items`), counted once per data version.
    var totalItems: () throws -> Int

    /// The API level answered, as Fever 1.x and FreshRSS answer.
    static let level = 3
    /// The most items one `items` call returns (Fever's own page).
    static let page = 50

    /// A value or switch named in the query or the form (Fever apps send either).
    func argument(_ request: WebRequest, _ name: String) -> String? {
        request.query.first { $0.0 == name }?.1 ?? request.form.first { $0.0 == name }?.1
    }

    /// Answers one Fever call: the writes it asks for, then the lists.
    func respond(to request: WebRequest) async throws -> WebResponse {
        guard request.method == "POST" || request.method == "GET" else {
            return .text(localized("the Fever API is called with POST (or GET)\n"), status: 405).adding("Allow", "GET, HEAD, POST")
        }
        guard argument(request, "api") != nil else {
            return .text(localized("the Fever API answers at ?api (such as /fever/?api&items)\n"), status: 400)
        }
        switch checkKey(argument(request, "api_key") ?? "", request.client) {
        case .accepted: break
        case .rejected: return answer(authorized: false) { _ in }
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now)))
            return answer(status: 429, authorized: false) { _ in }.adding("Retry-After", String(seconds))
        }
        let sections = try session.subscriptions(counted: false)
        let numbers = FeverNumbers(
            subscriptions: sections.map { SubscriptionName(provider: $0.provider, section: $0.key) },
            providers: session.configuration.providers.map(\.id))
        var wrote: Set<String> = []
        if let mark = argument(request, "mark") {
            do {
                wrote = try write(mark: mark, request, numbers: numbers)
            } catch let error as ReaderRequestError {
                return .text("\(error.message)\n", status: 400)
            }
        }
        var lists: [String] = []
        for name in ["groups", "feeds", "favicons", "items", "links", "unread_item_ids", "saved_item_ids"]
        where argument(request, name) != nil || wrote.contains(name) {
            lists.append(name)
        }
        let items: [StoredItem]?
        do {
            items = lists.contains("items") ? try self.items(request) : nil
        } catch let error as ReaderRequestError {
            return .text("\(error.message)\n", status: 400)
        }
        let icons = lists.contains("favicons") ? await session.siteIcons() : [:]
        let states = try session.providerStates()
        return try answer(authorized: true) { writer in
            writer.key("last_refreshed_on_time")
            writer.integer(Int(states.values.compactMap(\.lastSuccess).max()?.timeIntervalSince1970 ?? 0))
            for list in lists {
                switch list {
                case "groups":
                    try groups(&writer, numbers: numbers)
                    try feedsGroups(&writer, numbers: numbers)
                case "feeds":
                    try feeds(&writer, sections, numbers: numbers, states: states)
                    try feedsGroups(&writer, numbers: numbers)
                case "favicons": Self.favicons(&writer, icons: icons, numbers: numbers)
                case "items": try itemList(&writer, items ?? [], numbers: numbers)
                case "links":
                    writer.key("links")
                    writer.beginArray()
                    writer.endArray()
                case "unread_item_ids": try idList(&writer, list, stream: .readingList, unread: true)
                default: try idList(&writer, list, stream: .starred, unread: false)
                }
            }
        }
    }

    /// `{"api_version": 3, "auth": 0|1, …}`, with what `body` writes when authorized.
    func answer(status: Int = 200, authorized: Bool, _ body: (inout JSONWriter) throws -> Void) rethrows -> WebResponse {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("api_version")
        writer.integer(Self.level)
        writer.key("auth")
        writer.integer(authorized ? 1 : 0)
        if authorized { try body(&writer) }
        writer.endObject()
        return .text(writer.output, status: status, contentType: "application/json; charset=utf-8")
    }
}

/// A feed's and an item's place in Fever's numbering, and the lists of ids.
extension FeverAPI {
    /// `unread_item_ids` or `saved_item_ids`: every unread (or saved) item of the
    /// subscriptions as one comma-separated string, newest first.
    func idList(_ writer: inout JSONWriter, _ key: String, stream: ReaderStream, unread: Bool) throws {
        var ids = ""
        if var query = stream.query(in: session) {
            query.unreadOnly = unread
            query.byNumber = true
            query.limit = Int(Int32.max)
            ids = try session.refs(query).map(String.init).joined(separator: ",")
        }
        writer.key(key)
        writer.string(ids)
    }
}
