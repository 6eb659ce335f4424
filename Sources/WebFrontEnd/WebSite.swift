import Aggregator
import Foundation
import Synchronization

/// The web front end: answers each request from the store and the current config.
///
/// Only requests whose `Host` the ``HostAllowlist`` names are answered (DNS rebinding).
/// Pages need a signed-in session when a password is set; sessions are created only by
/// signing in, so no flood of visitors can push one out. Feeds accept the session or the
/// password as HTTP Basic auth (for feed readers). Every state-changing request is a POST
/// from this origin carrying a form token: the session's, or for a visitor without one an
/// HMAC of their `aggr_form` cookie (signed double submit, no server state). Every
/// response carries a strict Content-Security-Policy.
public final class WebSite: Sendable {
    /// The library every page, feed and reader-app call goes through.
    public let session: LibrarySession
    public let sessions = SessionBook()
    public let throttle = LoginThrottle()
    /// The password, when one is configured; nil leaves a loopback site open.
    let password: String?
    /// The `Host` names answered.
    let hosts: HostAllowlist
    /// The signing keys and when they were read (a rotation by another process shows within
    /// ``keysLifetime``).
    private let signing: Mutex<(keys: ServeKeys, read: Date)?> = Mutex(nil)
    static let keysLifetime: TimeInterval = 2
    /// Whether item pages offer to fetch threads that are not stored through their provider.
    let fetchesThreads: Bool

    public static let contentSecurityPolicy =
        "default-src 'none'; img-src http: https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    public init(session: LibrarySession, password: String?, hosts: HostAllowlist, fetchesThreads: Bool = false) {
        self.session = session
        self.hosts = hosts
        self.fetchesThreads = fetchesThreads
        self.password = password.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The site's clock: the session's.
    var clock: @Sendable () -> Date { session.clock }

    /// The tokens in force, from the installation's secret and the password.
    func keys() throws -> ServeKeys {
        let now = Date()
        if let cached = signing.withLock({ $0 }), now.timeIntervalSince(cached.read) < Self.keysLifetime { return cached.keys }
        let keys = ServeKeys(secret: try session.installationSecret("serve"), password: password)
        signing.withLock { $0 = (keys, now) }
        return keys
    }

    /// The config in force (the session's, which a reload replaces).
    public var configuration: Configuration { session.configuration }

    /// Answers `request`; never throws (errors become error pages).
    public func respond(to request: WebRequest) async -> WebResponse {
        var request = request
        request.path = Self.routedPath(request.path)
        let head = request.method == "HEAD"
        if head { request.method = "GET" }
        var response: WebResponse
        do {
            if hosts.allows(request.header("Host")) {
                response = try await route(request)
            } else {
                let name = TerminalText.sanitize(request.header("Host") ?? "")
                response = .text(
                    "aggr serve does not answer for host \"\(name)\": add it to serve.hosts in providers.json if it is yours\n",
                    status: 421)
            }
        } catch let error as SearchError {
            response = .text("\(error)\n", status: 400)
        } catch {
            response = .text("aggr: \(error)\n", status: 500)
        }
        response.headers += [
            ("Content-Security-Policy", Self.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"), ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        if head {
            response.headers.append(("Content-Length", String(response.body.count)))
            response.body = []
        }
        return response
    }

    /// The path a request is routed by: runs of slashes merged (newsboat, given a base URL
    /// ending in `/`, asks for `//accounts/ClientLogin`), and FreshRSS's `/api/greader.php`
    /// prefix dropped, since apps such as NetNewsWire are set up with it.
    static func routedPath(_ path: String) -> String {
        guard path.contains("//") || path.hasPrefix("/api/") else { return path }
        var merged = ""
        merged.reserveCapacity(path.utf8.count)
        for character in path where !(character == "/" && merged.last == "/") { merged.append(character) }
        let prefix = "/api/greader.php"
        if merged.hasPrefix(prefix + "/reader/api/0/") || merged == prefix + "/accounts/ClientLogin" {
            merged.removeFirst(prefix.count)
        }
        return merged
    }

    func route(_ request: WebRequest) async throws -> WebResponse {
        let path = request.path
        switch (request.method, path) {
        case ("GET", "/static/app.css"):
            return asset(WebAssets.stylesheet, version: WebAssets.stylesheetVersion, type: "text/css; charset=utf-8", request: request)
        case ("GET", "/static/app.js"):
            return asset(WebAssets.script, version: WebAssets.scriptVersion, type: "text/javascript; charset=utf-8", request: request)
        case ("GET", "/favicon.ico"): return WebResponse(status: 204)
        case ("GET", "/login"): return try loginPage(request, error: nil)
        case ("POST", "/login"): return try login(request)
        case ("POST", "/logout"): return try logout(request)
        default: break
        }
        if path == "/accounts/ClientLogin" || path.hasPrefix("/reader/api/0/") {
            let api = ReaderAPI(
                session: session, keys: try keys(), checkPassword: { self.checkPassword($0, client: $1) }, now: clock())
            return try api.respond(to: request)
        }
        if path.hasPrefix("/feeds/") || path == "/opml" {
            guard request.method == "GET" else { return .text("feeds are read with GET\n", status: 405).adding("Allow", "GET, HEAD") }
            guard feedAuthorized(request) else {
                return .text("sign in: the password as HTTP Basic auth (any user name)\n", status: 401)
                    .adding("WWW-Authenticate", "Basic realm=\"aggr\", charset=\"UTF-8\"")
            }
            return try FeedEndpoint(site: self, now: clock()).respond(to: request)
        }
        // Pages and actions.
        let visitor = try visitor(request)
        if !visitor.signedIn {
            if request.method == "GET" {
                return .redirect(to: HTML.link("/login", [("next", path == "/" ? nil : path)]))
            }
            return .text("sign in first\n", status: 401)
        }
        var response: WebResponse
        switch request.method {
        case "GET":
            response = try page(request, csrf: visitor.csrf)
        case "POST":
            if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
            response = try await action(request)
        default:
            response = .text("method \(request.method) not allowed\n", status: 405).adding("Allow", "GET, HEAD, POST")
        }
        if let cookie = visitor.cookie { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

    // MARK: Sessions

    /// Who sent a request: their session when they signed in, and the form token their
    /// forms must carry.
    struct Visitor {
        var session: SessionBook.Session?
        var signedIn: Bool
        var csrf: String
        /// The `Set-Cookie` value that gives a new visitor their form cookie.
        var cookie: String?
    }

    /// The cookie binding a visitor without a session to their form token.
    static let formCookie = "aggr_form"

    /// The request's visitor; no server state is created for one without a session.
    func visitor(_ request: WebRequest) throws -> Visitor {
        if let session = sessions.session(request.cookie(SessionBook.cookie), now: clock()) {
            return Visitor(session: session, signedIn: session.signedIn || password == nil, csrf: session.csrf)
        }
        let given = request.cookie(Self.formCookie).flatMap { Self.isNonce($0) ? $0 : nil }
        let nonce = given ?? SessionBook.token()
        return Visitor(
            session: nil, signedIn: password == nil, csrf: try keys().formToken(binding: nonce),
            cookie: given == nil ? "\(Self.formCookie)=\(nonce); Path=/; HttpOnly; SameSite=Strict" : nil)
    }

    /// Whether `text` is a value ``SessionBook/token()`` made (64 lowercase hex digits).
    static func isNonce(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func cookie(_ value: String, maxAge: Int) -> String {
        "\(SessionBook.cookie)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)"
    }

    /// A 403 unless the POST carries the visitor's form token and comes from this origin.
    func refuseForgery(_ request: WebRequest, csrf: String) -> WebResponse? {
        if let site = request.header("Sec-Fetch-Site"), site != "same-origin", site != "none" {
            return .text("cross-site request refused\n", status: 403)
        }
        if let origin = request.header("Origin") {
            // `null` is what a sandboxed frame or a data: page sends: never this site.
            guard origin != "null", Self.sameOrigin(origin, host: request.header("Host") ?? "") else {
                return .text("request from another origin (\(TerminalText.sanitize(origin))) refused\n", status: 403)
            }
        }
        guard let token = request.field("csrf"), SessionBook.constantTimeEqual(token, csrf) else {
            return .text("missing or stale form token: reload the page and try again\n", status: 403)
        }
        return nil
    }

    /// Whether `origin` (`http://host:port`) names the host the request was sent to.
    static func sameOrigin(_ origin: String, host: String) -> Bool {
        guard let components = URL(string: origin), let name = components.host?.lowercased() else { return false }
        let defaultPort = components.scheme?.lowercased() == "https" ? 443 : 80
        let port = components.port ?? defaultPort
        let target = host.lowercased()
        return target == "\(name):\(port)" || (port == defaultPort && target == name)
    }

    func feedAuthorized(_ request: WebRequest) -> Bool {
        guard let password else { return true }
        if sessions.session(request.cookie(SessionBook.cookie), now: clock())?.signedIn == true { return true }
        guard let header = request.header("Authorization"), header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return false }
        if throttle.blockedUntil(request.client, now: clock()) != nil { return false }
        let given = String(text[text.index(after: colon)...])
        guard SessionBook.constantTimeEqual(given, password) else {
            throttle.failed(request.client, now: clock())
            return false
        }
        return true
    }

    /// Whether `password` is the configured one; counts failures per client.
    public func checkPassword(_ given: String, client: String) -> PasswordCheck {
        guard let password else { return .accepted }
        if let until = throttle.blockedUntil(client, now: clock()) { return .throttled(until: until) }
        guard SessionBook.constantTimeEqual(given, password) else {
            throttle.failed(client, now: clock())
            return .rejected
        }
        throttle.succeeded(client)
        return .accepted
    }

    /// How a password check ended.
    public enum PasswordCheck: Equatable, Sendable {
        case accepted, rejected
        case throttled(until: Date)
    }

    func loginPage(_ request: WebRequest, error: String?, status: Int = 200) throws -> WebResponse {
        let visitor = try visitor(request)
        let pages = WebPages(now: clock(), csrf: visitor.csrf, passwordProtected: password != nil)
        let next = Self.localPath(request.parameter("next") ?? request.field("next")) ?? "/"
        var response = WebResponse.html(
            pages.layout(title: "Sign in · aggr", content: pages.login(error: error, next: next)), status: status)
        if let cookie = visitor.cookie { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

    func login(_ request: WebRequest) throws -> WebResponse {
        let visitor = try visitor(request)
        if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
        switch checkPassword(request.field("password") ?? "", client: request.client) {
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(clock())))
            return try loginPage(request, error: "Too many wrong passwords: try again in \(seconds) s.", status: 429)
                .adding("Retry-After", String(seconds))
        case .rejected:
            return try loginPage(request, error: "Wrong password.", status: 403)
        case .accepted:
            let next = Self.localPath(request.field("next")) ?? "/"
            // An open loopback site has nobody to sign in: no session to keep.
            guard password != nil else { return .redirect(to: next) }
            // A new session id on sign-in, so one planted before cannot be ridden.
            if let old = visitor.session { sessions.end(old.id) }
            let fresh = sessions.start(signedIn: true, now: clock())
            return .redirect(to: next).adding("Set-Cookie", Self.cookie(fresh.id, maxAge: Int(SessionBook.lifetime)))
        }
    }

    func logout(_ request: WebRequest) throws -> WebResponse {
        let visitor = try visitor(request)
        if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
        if let session = visitor.session { sessions.end(session.id) }
        return .redirect(to: password == nil ? "/" : "/login").adding("Set-Cookie", Self.cookie("", maxAge: 0))
    }

    /// `text` when it is a path on this site (`/…`, not `//host`), else nil.
    static func localPath(_ text: String?) -> String? {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return nil }
        return text
    }

    /// An embedded asset: kept for a year under its versioned URL (`?v=` its fingerprint, as
    /// pages link it), revalidated every time under any other.
    func asset(_ text: String, version: String, type: String, request: WebRequest) -> WebResponse {
        let tag = "\"\(version)\""
        let caching = request.parameter("v") == version ? "public, max-age=31536000, immutable" : "no-cache"
        if request.header("If-None-Match") == tag {
            return WebResponse(status: 304, headers: [("ETag", tag), ("Cache-Control", caching)])
        }
        return WebResponse(
            status: 200, headers: [("Content-Type", type), ("ETag", tag), ("Cache-Control", caching)], body: Array(text.utf8))
    }

    // MARK: Pages

    func page(_ request: WebRequest, csrf: String) throws -> WebResponse {
        let pages = WebPages(now: clock(), csrf: csrf, passwordProtected: password != nil)
        if request.path == "/" { return try timelinePage(request, pages: pages) }
        if request.path.hasPrefix("/item/"), let ref = Int64(request.path.dropFirst("/item/".count)) {
            guard var stored = try session.item(ref: ref) else {
                return .html(
                    pages.layout(title: "Not found · aggr", content: pages.problem("No such item", "Item \(ref) is not stored.")),
                    status: 404)
            }
            // Opening an item reads it, as in the reader and in miniflux; its page can mark it unread again.
            if stored.isUnread, try session.setRead([ref], true) == 1 { stored.readAt = clock() }
            let thread = try session.thread(of: stored)
            let fetchable = fetchesThreads && session.threadCanBeFetched(stored, storedReplies: thread.count)
            let problem = request.parameter("thread_error")
            return .html(
                pages.layout(
                    title: "\(stored.item.title) · aggr",
                    content: pages.item(stored, thread: thread, fetchable: fetchable, threadProblem: problem)))
        }
        return .html(
            pages.layout(title: "Not found · aggr", content: pages.problem("Not found", "Nothing lives at \(request.path).")), status: 404)
    }

    func timelinePage(_ request: WebRequest, pages: WebPages) throws -> WebResponse {
        let search = request.parameter("q")
        let filterText = request.parameter("where")
        let unreadOnly = request.parameter("unread") == "1"
        guard let tab = TimelineTab(webParameter: request.parameter("tab")) else {
            let given = request.parameter("tab") ?? ""
            return .html(
                pages.layout(
                    title: "Not found · aggr",
                    content: pages.problem(
                        "No such tab", "tab=\(given) is not a tab: use all, v:<view> or p:<provider>.")),
                status: 404)
        }
        var wanted = LibrarySession.PageRequest(
            tab: tab, filter: filterText, search: search, unreadOnly: unreadOnly, limit: search == nil ? 50 : WebPages.searchLimit)
        if let token = request.parameter("cursor") {
            guard let cursor = TimelineCursor(token: token) else {
                return .html(
                    pages.layout(title: "Bad request · aggr", content: pages.problem("Bad cursor", "The page link is damaged.")),
                    status: 400)
            }
            wanted.cursor = cursor
        }
        var items: [StoredItem] = []
        var next: String?
        var filterError: String?
        var status = 200
        do {
            let page = try session.page(wanted)
            items = page.items
            next = page.nextCursor?.description
        } catch let error as UnknownTabError {
            return .html(
                pages.layout(title: "Not found · aggr", content: pages.problem("No such tab", "\(error).")), status: 404)
        } catch ItemSelection.Failure.invalidFilter(let error) {
            filterError = "\(error)"
            status = 400
        }
        let strip = session.tabs()
        let counts = try session.unreadCounts(of: strip)
        let tabs = strip.map { ($0, counts[$0] ?? 0) }
        let back = HTML.link("/", [("tab", tab.webParameter), ("q", search), ("where", filterText), ("unread", unreadOnly ? "1" : nil)])
        let header = pages.header(tabs: tabs, current: tab, search: search, filter: filterText, unreadOnly: unreadOnly)
        let content = pages.timeline(
            items: items, tab: tab, filterError: filterError, search: search, filter: filterText, unreadOnly: unreadOnly, next: next,
            back: back)
        return .html(pages.layout(title: "\(tab.label) · aggr", header: header, content: content), status: status)
    }

    // MARK: Actions

    /// `POST /item/<ref>/thread`: fetches the thread through its provider, then shows the
    /// item again (with the reason when it could not).
    func fetchThread(_ ref: Int64) async throws -> WebResponse {
        guard fetchesThreads, let stored = try session.item(ref: ref) else { return .text("no item \(ref)\n", status: 404) }
        do {
            _ = try await session.fetchThread(of: stored)
            return .redirect(to: "/item/\(ref)#thread")
        } catch {
            return .redirect(to: HTML.link("/item/\(ref)", [("thread_error", "\(error)")]))
        }
    }

    func action(_ request: WebRequest) async throws -> WebResponse {
        let wantsJSON = request.header("Accept")?.contains("application/json") == true
        let back = Self.localPath(request.field("back")) ?? "/"
        let parts = request.path.split(separator: "/")
        if parts.count == 3, parts[0] == "item", let ref = Int64(parts[1]), parts[2] == "thread" {
            return try await fetchThread(ref)
        }
        if parts.count == 3, parts[0] == "item", let ref = Int64(parts[1]) {
            switch (parts[2], request.field("state")) {
            case ("read", "read"?), ("read", "unread"?):
                let read = request.field("state") == "read"
                guard try session.setRead([ref], read) == 1 else { return .text("no item \(ref)\n", status: 404) }
                return wantsJSON
                    ? .text("{\"ref\":\(ref),\"read\":\(read)}", status: 200, contentType: "application/json") : .redirect(to: back)
            case ("save", "saved"?), ("save", "unsaved"?):
                let saved = request.field("state") == "saved"
                guard try session.setSaved([ref], saved) == 1 else { return .text("no item \(ref)\n", status: 404) }
                return wantsJSON
                    ? .text("{\"ref\":\(ref),\"saved\":\(saved)}", status: 200, contentType: "application/json") : .redirect(to: back)
            default:
                return .text("state must be read/unread (…/read) or saved/unsaved (…/save)\n", status: 400)
            }
        }
        if request.path == "/tab/read" {
            guard let tab = TimelineTab(webParameter: request.field("tab")) else {
                return .text("no tab \(request.field("tab") ?? "")\n", status: 404)
            }
            let count: Int
            do {
                count = try session.markRead(tab: tab, filter: request.field("where"))
            } catch is UnknownTabError {
                return .text("no tab \(request.field("tab") ?? "")\n", status: 404)
            } catch ItemSelection.Failure.invalidFilter(let error) {
                return .text("where: \(error)\n", status: 400)
            }
            return wantsJSON ? .text("{\"marked\":\(count)}", status: 200, contentType: "application/json") : .redirect(to: back)
        }
        return .text("nothing to do at \(request.path)\n", status: 404)
    }
}
