import Aggregator
import Foundation

/// Who may use the site: sessions, sign-in and out, form tokens, the password for feeds.
extension WebSite {
    /// Who sent a request: their session when they signed in, and the form token their
    /// forms must carry.
    struct Visitor {
        var session: SessionBook.Session?
        var signedIn: Bool
        /// Whose library their pages show.
        var account: Account { Account(user: session?.user) }
        var csrf: String
        /// The `Set-Cookie` value that gives a new visitor their form cookie.
        var cookie: String?
    }

    /// The cookie binding a visitor without a session to their form token.
    static let formCookie = "aggr_form"

    /// The live session the request's cookie names; one signed in with the config's
    /// password ends when that password is gone.
    func signedInSession(_ request: WebRequest) throws -> SessionBook.Session? {
        guard let session = try sessions.session(request.cookie(SessionBook.cookie), now: clock()) else { return nil }
        return session.user != nil || password != nil ? session : nil
    }

    /// The request's visitor; no server state is created for one without a session.
    func visitor(_ request: WebRequest) throws -> Visitor {
        if let session = try signedInSession(request) {
            return Visitor(session: session, signedIn: true, csrf: session.csrf)
        }
        let given = request.cookie(Self.formCookie).flatMap { Self.isNonce($0) ? $0 : nil }
        let nonce = given ?? SessionBook.token()
        return Visitor(
            session: nil, signedIn: try !requiresSignIn(), csrf: try keys().formToken(binding: nonce),
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
            return .text(localized("cross-site request refused\n"), status: 403)
        }
        if let origin = request.header("Origin") {
            // `null` is what a sandboxed frame or a data: page sends: never this site.
            guard origin != "null", Self.sameOrigin(origin, host: request.header("Host") ?? "") else {
                return .text(localized("request from another origin (\(TerminalText.sanitize(origin))) refused\n"), status: 403)
            }
        }
        guard let token = request.field("csrf"), SessionBook.constantTimeEqual(token, csrf) else {
            return .text(localized("missing or stale form token: reload the page and try again\n"), status: 403)
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

    /// Who may read the feeds a request asks for: a signed-in browser, or HTTP Basic auth
    /// with a user's name and password (any name with the config's password); nil for nobody.
    func feedAccount(_ request: WebRequest) throws -> Account? {
        guard try requiresSignIn() else { return Account(user: nil) }
        if let session = try signedInSession(request) { return Account(user: session.user) }
        guard let header = request.header("Authorization"), header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let name = String(text[..<colon])
        guard case .accepted(let user) = try signIn(user: name, password: String(text[text.index(after: colon)...]), client: request.client)
        else { return nil }
        return Account(user: user)
    }

    /// Checks a Fever app's `api_key`: the MD5 (hex) of `serve.user:password`, throttled
    /// as a password is.
    public func checkFeverKey(_ given: String, client: String) -> PasswordCheck {
        check(given.lowercased(), client: client) { RequestSigner.md5Hex("\(configuration.serve.user):\($0)") }
    }

    /// `given` against what `expected` makes of the password, per-client throttle included;
    /// anything passes when no password is set (loopback only) and no user signs in by name.
    func check(_ given: String, client: String, expected: (String) -> String) -> PasswordCheck {
        guard let password else {
            guard (try? signsInUsers()) == false else {
                throttle.failed(client, password: given, now: clock())
                return .rejected
            }
            return .accepted(user: nil)
        }
        if let until = throttle.blockedUntil(client, now: clock()) { return .throttled(until: until) }
        let wanted = expected(password)
        guard !wanted.isEmpty, SessionBook.constantTimeEqual(given, wanted) else {
            throttle.failed(client, password: given, now: clock())
            return .rejected
        }
        throttle.succeeded(client)
        return .accepted(user: nil)
    }

    /// How a password check ended.
    public enum PasswordCheck: Equatable, Sendable {
        /// Signed in as database user `user`, or as the site's own user (nil).
        case accepted(user: String?)
        case rejected
        case throttled(until: Date)
    }

    func loginPage(_ request: WebRequest, error: String?, status: Int = 200) throws -> WebResponse {
        let visitor = try visitor(request)
        let pages = WebPages(now: clock(), csrf: visitor.csrf, passwordProtected: try requiresSignIn(), asksUser: try signsInUsers())
        let next = Self.localPath(request.parameter("next") ?? request.field("next")) ?? "/"
        var response = WebResponse.html(
            pages.layout(title: localized("Sign in · aggr"), content: pages.login(error: error, next: next)), status: status)
        if let cookie = visitor.cookie { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

    func login(_ request: WebRequest) throws -> WebResponse {
        let visitor = try visitor(request)
        if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
        switch try signIn(user: request.field("user"), password: request.field("password") ?? "", client: request.client) {
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(clock())))
            return try loginPage(request, error: localized("Too many wrong passwords: try again in \(seconds) s."), status: 429)
                .adding("Retry-After", String(seconds))
        case .rejected:
            let wrong = try signsInUsers() ? localized("Wrong user name or password.") : localized("Wrong password.")
            return try loginPage(request, error: wrong, status: 403)
        case .accepted(let user):
            let next = Self.localPath(request.field("next")) ?? "/"
            // An open loopback site has nobody to sign in: no session to keep.
            guard try requiresSignIn() else { return .redirect(to: next) }
            // A new session id on sign-in, so one planted before cannot be ridden.
            if let old = visitor.session { try sessions.end(old.id) }
            let fresh = try sessions.start(user: user, now: clock())
            return .redirect(to: next).adding("Set-Cookie", Self.cookie(fresh.id, maxAge: Int(SessionBook.lifetime)))
        }
    }

    func logout(_ request: WebRequest) throws -> WebResponse {
        let visitor = try visitor(request)
        if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
        if let session = visitor.session { try sessions.end(session.id) }
        return .redirect(to: try requiresSignIn() ? "/login" : "/").adding("Set-Cookie", Self.cookie("", maxAge: 0))
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
}
