import Aggregator
import Foundation

/// The Google Reader API that reader apps (NetNewsWire, Reeder, FeedMe, Fluent Reader,
/// Read You…) sync with: `/accounts/ClientLogin` and `/reader/api/0/…`.
///
/// Any user name and the `serve.password_env` password sign in as the user serve runs as;
/// on a database with users (`aggr users add`), a user's name and own password sign in as
/// them. The auth token is an HMAC of the password (or the user's name and password hash)
/// keyed with the installation's secret (``ServeKeys``), so it survives restarts, dies with
/// a password change or `aggr serve --rotate-tokens`, and differs between installations
/// sharing a password. Subscriptions
/// are provider sections, labels are views and providers, item ids are aggr's item numbers
/// (stable across refreshes and restarts). Read and starred are aggr's read and saved.
struct ReaderAPI {
    var session: LibrarySession
    /// The installation's tokens in force.
    var keys: ServeKeys
    /// Checks a user name (`Email`, may be nil) and password given at sign-in (throttled
    /// per client by the site).
    var signIn: (_ user: String?, _ given: String, _ client: String) throws -> WebSite.PasswordCheck
    /// The tokens of whoever signed in (nil: the site's own).
    var keysFor: (_ user: String?) throws -> ServeKeys
    var now: Date

    /// The most ids or items one call returns.
    static let maximumCount = 10_000
    /// The most items one `stream/items/contents` call names (clients ask for 100–250 at a
    /// time; 20,000 took seconds and held a worker).
    static let maximumContents = 1_000

    /// Answers one Reader API call.
    func respond(to request: WebRequest) async throws -> WebResponse {
        if request.path == "/accounts/ClientLogin" { return try login(request) }
        guard authorized(request, keys: keys) else {
            return WebResponse.text("Unauthorized\n", status: 401).adding("Google-Bad-Token", "true")
        }
        if request.path.hasPrefix("/reader/atom/") {
            guard request.method == "GET" else {
                return .text(localized("Atom streams are read with GET\n"), status: 405).adding("Allow", "GET, HEAD")
            }
            return try atomStream(request, stream: String(request.path.dropFirst("/reader/atom/".count)))
        }
        let endpoint = String(request.path.dropFirst("/reader/api/0/".count))
        switch (request.method, endpoint) {
        case ("GET", "token"): return .text(keys.readerAction + "\n", status: 200)
        case ("GET", "user-info"): return json { writer in userInfo(&writer) }
        case ("GET", "subscription/list"): return try json { writer in try subscriptions(&writer, base: request.origin) }
        case ("POST", "subscription/quickadd"): return await quickAdd(request, keys: keys)
        case ("POST", "subscription/edit"): return await editSubscription(request, keys: keys)
        case ("GET", "subscription/export"):
            return WebResponse(
                status: 200, headers: [("Content-Type", TimelineDocument.Format.opml.contentType)],
                body: Array(session.subscriptionOPML(base: request.origin).utf8))
        case ("POST", "subscription/import"): return importSubscriptions(request, keys: keys)
        case ("GET", "tag/list"): return try json { writer in try tags(&writer) }
        case ("GET", "unread-count"): return try json { writer in try unreadCounts(&writer) }
        case ("GET", "stream/items/ids"): return try itemIDs(request)
        case ("GET", "stream/items/contents"), ("POST", "stream/items/contents"): return try contents(request, ids: requestIDs(request))
        case ("POST", "edit-tag"): return try editTag(request, keys: keys)
        case ("POST", "mark-all-as-read"): return try markAllRead(request, keys: keys)
        case ("POST", "rename-tag"): return try renameTag(request, keys: keys)
        case ("POST", "disable-tag"): return try disableTag(request, keys: keys)
        default:
            if endpoint.hasPrefix("stream/contents"), request.method == "GET" || request.method == "POST" {
                return try streamContents(request, stream: String(endpoint.dropFirst("stream/contents".count).drop { $0 == "/" }))
            }
            return .text(localized("unknown reader API call \(request.method) /reader/api/0/\(endpoint)\n"), status: 404)
        }
    }

    /// A JSON answer written by `build`.
    func json(_ build: (inout JSONWriter) throws -> Void) rethrows -> WebResponse {
        var writer = JSONWriter()
        try build(&writer)
        return .text(writer.output, status: 200, contentType: "application/json; charset=utf-8")
    }
}

/// A malformed reader-API request, answered with 400 and this message.
struct ReaderRequestError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
