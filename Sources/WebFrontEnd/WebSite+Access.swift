import Aggregator
import Foundation

/// Who may use the site: sessions, sign-in and out, form tokens, the password for feeds.
extension WebSite {
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
            throttle.failed(request.client, password: given, now: clock())
            return false
        }
        throttle.succeeded(request.client)
        return true
    }

    /// Whether `password` is the configured one; counts failures per client.
    public func checkPassword(_ given: String, client: String) -> PasswordCheck {
        check(given, client: client) { $0 }
    }

    /// Checks a Fever app's `api_key`: the MD5 (hex) of `serve.user:password`, throttled
    /// as a password is.
    public func checkFeverKey(_ given: String, client: String) -> PasswordCheck {
        check(given.lowercased(), client: client) { RequestSigner.md5Hex("\(configuration.serve.user):\($0)") }
    }

    /// `given` against what `expected` makes of the password, per-client throttle included;
    /// anything passes when no password is set (loopback only).
    func check(_ given: String, client: String, expected: (String) -> String) -> PasswordCheck {
        guard let password else { return .accepted }
        if let until = throttle.blockedUntil(client, now: clock()) { return .throttled(until: until) }
        let wanted = expected(password)
        guard !wanted.isEmpty, SessionBook.constantTimeEqual(given, wanted) else {
            throttle.failed(client, password: given, now: clock())
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
            pages.layout(title: localized("Sign in · aggr"), content: pages.login(error: error, next: next)), status: status)
        if let cookie = visitor.cookie { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

    func login(_ request: WebRequest) throws -> WebResponse {
        let visitor = try visitor(request)
        if let refusal = refuseForgery(request, csrf: visitor.csrf) { return refusal }
        switch checkPassword(request.field("password") ?? "", client: request.client) {
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(clock())))
            return try loginPage(request, error: localized("Too many wrong passwords: try again in \(seconds) s."), status: 429)
                .adding("Retry-After", String(seconds))
        case .rejected:
            return try loginPage(request, error: localized("Wrong password."), status: 403)
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
}
