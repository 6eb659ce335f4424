import Foundation
import Synchronization

/// What a provider may use while acting on its site: the HTTP client, the provider's token
/// and signed-in session, and whether to send at all.
///
/// On a dry run nothing is sent: each request is noted (``plannedRequests``) and answered
/// with nil, so a front end can show what would go out. Every answer is checked the same
/// way: a sign-in page or a 401/403 says which variable to fix, a 429 waits once when the
/// site asks for a short pause and otherwise says until when.
public final class ActionContext: Sendable {
    public let http: any HTTPClient
    public let now: Date
    /// The provider's token, when its variable is set.
    public let token: String?
    /// The variable the token comes from (`GITHUB_TOKEN`), for messages.
    public let tokenVariable: String
    /// The provider's signed-in browser session (`cookie_env`).
    public let webCookie: WebCookie?
    /// The variable the session would come from (`V2EX_COOKIE`), for messages.
    public let cookieVariable: String
    public let dryRun: Bool
    /// The site's name in messages (`V2EX`).
    public let site: String
    private let planned = Mutex<[HTTPRequest]>([])

    public init(
        http: any HTTPClient, now: Date, site: String, token: String?, tokenVariable: String, webCookie: WebCookie?,
        cookieVariable: String, dryRun: Bool
    ) {
        self.http = http
        self.now = now
        self.site = site
        self.token = token
        self.tokenVariable = tokenVariable
        self.webCookie = webCookie
        self.cookieVariable = cookieVariable
        self.dryRun = dryRun
    }

    /// The requests a dry run would have sent, in order.
    public var plannedRequests: [HTTPRequest] { planned.withLock { $0 } }

    /// Sends `request` (with the session cookie when `signedIn` and the URL is on the
    /// provider's web origin) and checks the answer; nil on a dry run.
    public func send(_ request: HTTPRequest, signedIn: Bool = false) async throws -> HTTPResponse? {
        var request = request
        if signedIn, let cookie = webCookie, cookie.allows(request.url) { request.headers.append(("Cookie", cookie.value)) }
        if dryRun {
            planned.withLock { $0.append(request) }
            return nil
        }
        var response = try await http.send(request)
        if response.status == 429, let wait = response.header("Retry-After").flatMap(Int.init), (0...10).contains(wait) {
            try await Task.sleep(nanoseconds: UInt64(wait) * 1_000_000_000)
            response = try await http.send(request)
        }
        try check(response, of: request, signedIn: signedIn)
        return response
    }

    /// Reads `url` for what an action needs first (a page's `once` token); nil on a dry run.
    public func read(_ url: String, headers: [(String, String)] = [], signedIn: Bool = false) async throws -> HTTPResponse? {
        try await send(HTTPRequest(url: url, headers: headers), signedIn: signedIn)
    }

    /// Throws ``ActionError`` for an answer that is no success, naming what to fix.
    func check(_ response: HTTPResponse, of request: HTTPRequest, signedIn: Bool) throws {
        let url = SecretRedactor.redact(url: request.url)
        let excerpt = HTTPErrorExcerpt.make(response.body)
        let said = excerpt.isEmpty ? "" : ": \(excerpt)"
        if signedIn, let path = URLComponents(string: response.url)?.path, path.hasPrefix("/signin") {
            throw ActionError(
                localized("\(site) answered with its sign-in page: signed out; refresh the session cookie in $\(cookieVariable)"))
        }
        switch response.status {
        case 200..<400: return
        case 401 where signedIn && token == nil:
            throw ActionError(localized("\(site) refused the session (401): signed out; refresh the cookie in $\(cookieVariable)"))
        case 401:
            throw ActionError(localized("\(site) rejected the token in $\(tokenVariable) (401)\(said)"))
        case 403:
            let credential =
                signedIn && token == nil ? localized("the session in $\(cookieVariable)") : localized("the token in $\(tokenVariable)")
            throw ActionError(
                localized("\(site) refused \(request.method) \(url) (403): \(credential) may lack the scope or right for it\(said)"))
        case 429:
            let after = response.header("Retry-After").map { localized(", retry after \($0) s") } ?? ""
            throw ActionError(localized("\(site) is rate-limiting (429)\(after); nothing was done"))
        default:
            throw ActionError(localized("\(site) answered \(request.method) \(url) with HTTP \(response.status)\(said)"))
        }
    }
}
