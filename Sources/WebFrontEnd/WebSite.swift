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
    /// The library of the user serve was started as (`--user`): the one feeds, Fever and
    /// everyone signed in with the config's password use.
    public let library: LibrarySession
    /// The signed-in user's library while a request is answered (``session``).
    @TaskLocal static var requestLibrary: LibrarySession?
    public let sessions: SessionBook
    public let throttle = LoginThrottle()
    /// Whether the database has users with passwords (who then sign in by name), as of when.
    let accounts: Mutex<(signsIn: Bool, read: Date)?> = Mutex(nil)
    /// The libraries of users who signed in, by name.
    let userLibraries: Mutex<[String: LibrarySession]> = Mutex([:])
    /// Sign-ins checked against a user's slow password hash lately (a digest of name,
    /// password and hash → until when it stands), so a feed reader's HTTP Basic auth on
    /// every poll costs one hash, not one per request.
    let verifiedSignIns: Mutex<[String: Date]> = Mutex([:])
    /// The password, when one is configured; nil leaves a loopback site open.
    let password: String?
    /// The `Host` names answered.
    let hosts: HostAllowlist
    /// The signing keys and when they were read (a rotation by another process shows within
    /// ``keysLifetime``).
    private let signing: Mutex<(keys: ServeKeys, read: Date)?> = Mutex(nil)
    static let keysLifetime: TimeInterval = 2
    /// The subscriptions' item count as of a data version (Fever's `total_items` on every
    /// page would count a million rows each time).
    private let total: Mutex<(version: Int64, count: Int)?> = Mutex(nil)
    /// Whether item pages offer to fetch threads that are not stored through their provider.
    let fetchesThreads: Bool

    public static let contentSecurityPolicy =
        "default-src 'none'; img-src http: https: data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        // verbatim: Content-Security-Policy directives
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    public init(session: LibrarySession, password: String?, hosts: HostAllowlist, fetchesThreads: Bool = false) {
        library = session
        sessions = SessionBook(storage: session.storage)
        self.hosts = hosts
        self.fetchesThreads = fetchesThreads
        self.password = password.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The library of whoever the current request signed in as (the site's own otherwise).
    public var session: LibrarySession { Self.requestLibrary ?? library }

    /// The site's clock: the session's.
    var clock: @Sendable () -> Date { library.clock }

    /// The tokens in force, from the installation's secret and the password.
    func keys() throws -> ServeKeys {
        let now = Date()
        if let cached = signing.withLock({ $0 }), now.timeIntervalSince(cached.read) < Self.keysLifetime { return cached.keys }
        let keys = ServeKeys(secret: try library.installationSecret("serve"), password: password)
        signing.withLock { $0 = (keys, now) }
        return keys
    }

    /// How many items the configured providers hold, counted again only after a write.
    func storedTotal() throws -> Int {
        let version = try library.dataVersion()
        if let cached = total.withLock({ $0 }), cached.version == version { return cached.count }
        var query = TimelineQuery()
        query.providers = configuration.providers.isEmpty ? [""] : configuration.providers.map(\.id)
        query.dedupe = false
        let count = try library.count(query, cap: Int(Int32.max))
        total.withLock { $0 = (version, count) }
        return count
    }

    /// The config in force (the session's, which a reload replaces).
    public var configuration: Configuration { library.configuration }

    /// Answers `request`; never throws (errors become error pages).
    public func respond(to request: WebRequest) async -> WebResponse {
        let choice = WebLanguage(request: request, configured: configuration.language)
        var response = await Localization.$taskCatalog.withValue(choice.catalog) { await respondInLanguage(to: request) }
        for (name, value) in choice.headers {
            // One Vary header naming everything the answer depends on.
            if name == "Vary", let index = response.headers.firstIndex(where: { $0.0.lowercased() == "vary" }) {
                response.headers[index].1 += ", " + value
            } else {
                response.headers.append((name, value))
            }
        }
        return response
    }

    /// Answers `request` in the current task's language.
    private func respondInLanguage(to request: WebRequest) async -> WebResponse {
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
                    localized("aggr serve does not answer for host \"\(name)\": add it to serve.hosts in providers.json if it is yours\n"),
                    status: 421)
            }
        } catch let error as SearchError {
            response = .text("\(error)\n", status: 400)
        } catch {
            response = .text("aggr: \(error)\n", status: 500)
        }
        response.headers += [
            ("Content-Security-Policy", Self.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null`
            // with a form's POST, which the forgery check must refuse; other sites still get
            // no referrer (images and links also say so themselves).
            ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"), ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        response = ResponseCompression.apply(to: response, for: request)
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
        if merged.hasPrefix(prefix + "/reader/api/0/") || merged.hasPrefix(prefix + "/reader/atom/")
            || merged == prefix + "/accounts/ClientLogin"
        {
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
        if path == "/accounts/ClientLogin" || path.hasPrefix("/reader/api/0/") || path.hasPrefix("/reader/atom/") {
            var signedIn = (account: Account(user: nil), keys: try keys())
            if path != "/accounts/ClientLogin" {
                guard let found = try readerAccount(request) else {
                    return WebResponse.text("Unauthorized\n", status: 401).adding("Google-Bad-Token", "true")
                }
                signedIn = found
            }
            let api = ReaderAPI(
                session: try library(for: signedIn.account), keys: signedIn.keys,
                signIn: { try self.signIn(user: $0, password: $1, client: $2) }, keysFor: { try self.keys(for: $0) }, now: clock())
            return try await api.respond(to: request)
        }
        if path == "/fever/" || path == "/fever" || path == "/api/fever.php" {
            let api = FeverAPI(
                session: library, checkKey: { self.checkFeverKey($0, client: $1) }, now: clock(), base: request.origin,
                totalItems: { try self.storedTotal() })
            return try await api.respond(to: request)
        }
        if path.hasPrefix("/favicons/") {
            guard request.method == "GET" else {
                return .text(localized("icons are read with GET\n"), status: 405).adding("Allow", "GET, HEAD")
            }
            return await siteIcon(String(path.dropFirst("/favicons/".count)), request: request)
        }
        if path.hasPrefix("/feeds/") || path == "/opml" {
            guard request.method == "GET" else {
                return .text(localized("feeds are read with GET\n"), status: 405).adding("Allow", "GET, HEAD")
            }
            guard let account = try feedAccount(request) else {
                let hint =
                    try signsInUsers()
                    ? localized("sign in: your user name and password as HTTP Basic auth\n")
                    : localized("sign in: the password as HTTP Basic auth (any user name)\n")
                return .text(hint, status: 401).adding("WWW-Authenticate", "Basic realm=\"aggr\", charset=\"UTF-8\"")
            }
            return try Self.$requestLibrary.withValue(try library(for: account)) {
                try FeedEndpoint(site: self, now: clock()).respond(to: request)
            }
        }
        // Pages and actions.
        let visitor = try visitor(request)
        if !visitor.signedIn {
            if request.method == "GET" {
                return .redirect(to: HTML.link("/login", [("next", path == "/" ? nil : path)]))
            }
            return .text(localized("sign in first\n"), status: 401)
        }
        var response: WebResponse
        switch request.method {
        case "GET":
            response = try Self.$requestLibrary.withValue(try library(for: visitor.account)) { try page(request, visitor: visitor) }
        case "POST":
            if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
            response = try await Self.$requestLibrary.withValue(try library(for: visitor.account)) { try await action(request) }
        default:
            response = .text(localized("method \(request.method) not allowed\n"), status: 405).adding("Allow", "GET, HEAD, POST")
        }
        if let cookie = visitor.cookie { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

}
