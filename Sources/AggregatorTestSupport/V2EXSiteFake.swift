import Foundation

/// A signed-in V2EX on loopback, answering the requests V2EX's own pages make as the site
/// does, built from the real logged-in topic page in `../shared/fixtures/v2ex`
/// (`html-topic-1147555-2025-07.html`, `once` 84538).
///
/// It checks the session cookie, the `once` token and the `Referer` of every write, keeps
/// what was written (replies appear on the topic page, a favourite turns the page's link to
/// "unfavorite", the daily reward is claimed once), and can answer as V2EX does when things
/// go wrong: an expired `once`, a signed-out session, 403, 429.
public final class V2EXSiteFake: @unchecked Sendable {
    public static let topicID = 1_147_555
    public static let once = "84538"

    /// How the site answers writes.
    public enum Mode: Sendable {
        case normal
        /// The reply form's `once` has expired: the page comes back with a problem box.
        case expiredOnce
        /// Every write answers 403.
        case forbidden
        /// Every write answers 429 with this `Retry-After`.
        case rateLimited(retryAfter: Int)
    }

    /// One write the site received.
    public struct Write: Sendable, Equatable {
        public var method: String
        public var path: String
        public var query: String
        /// The form fields, decoded.
        public var form: [String: String]
        public var referer: String?
    }

    public let server: TestHTTPServer
    /// The `Cookie` header value a signed-in browser sends.
    public let cookie: String
    private let page: String
    private let lock = NSLock()
    // Guarded by `lock`.
    private var replies: [(id: Int, text: String)] = []
    private var favourited = false
    private var thanked: Set<String> = []
    private var claimed = false
    private var streak = 11
    private var writes: [Write] = []
    private var currentMode = Mode.normal

    /// Starts the site, or returns nil when the shared fixtures are not beside the repository.
    public init?(cookie: String = "A2=\"2|1:0|10:1700000000|2:A2|48:SECRETSESSIONVALUE0123456789abcdef\"; V2EX_LANG=zhcn") throws {
        guard let bytes = SharedFixtures.bytes("v2ex/html-topic-1147555-2025-07.html") else { return nil }
        page = String(decoding: bytes, as: UTF8.self)
        self.cookie = cookie
        server = try TestHTTPServer()
        server.route("/t/") { [unowned self] in self.topic($0) }
        server.route("/signin") { _ in .text("<html><body><form action=\"/signin\">登录</form></body></html>", contentType: "text/html") }
        server.route("/thank/") { [unowned self] in self.thank($0) }
        server.route("/favorite/topic/") { [unowned self] in self.favourite($0, on: true) }
        server.route("/unfavorite/topic/") { [unowned self] in self.favourite($0, on: false) }
        server.route("/mission/daily") { [unowned self] in self.mission($0) }
    }

    public var baseURL: String { server.baseURL }

    /// A providers.json of one V2EX entry reading this site, its session in `$V2EX_COOKIE`
    /// (`extra` adds keys to the entry, such as `, "checkin": true`).
    public func providersJSON(_ extra: String = "") -> String {
        """
        {"providers": [{"id": "v2ex", "type": "v2ex", "api_url": "\(baseURL)", "web_url": "\(baseURL)", "cookie_env": "V2EX_COOKIE",
          "sections": ["hot"]\(extra)}]}
        """
    }

    /// The fixture's topic as an `aggr import` line.
    public var topicLine: String {
        #"{"provider":"v2ex","section":"hot","id":"1147555","kind":"topic","title":"重磅更新！ Claude Code 引入大杀器 sub-agents","url":"\#(baseURL)/t/1147555","author":"terryso","published":"2025-07-25T02:00:00Z","summary":"","metrics":{"replies":29},"extra":{"node":"programmer"}}"#
    }

    public var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    /// Every write received (POSTs, and the GET links that change state), in order.
    public var received: [Write] { lock.withLock { writes } }

    /// The texts of the replies posted, in order.
    public var postedReplies: [String] { lock.withLock { replies.map(\.text) } }

    public var isFavourited: Bool { lock.withLock { favourited } }
    public var rewardClaimed: Bool { lock.withLock { claimed } }

    public func stop() { server.stop() }

    // MARK: Answers

    func signedIn(_ request: TestHTTPServer.Request) -> Bool { request.header("Cookie") == cookie }

    func signInRedirect(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        TestHTTPServer.Response(status: 302, headers: [("Location", "/signin?next=\(request.path)")])
    }

    /// A write's record, and the refusal the mode calls for (nil: go ahead).
    func record(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response? {
        let form = Self.decodeForm(String(decoding: request.body, as: UTF8.self))
        let mode = lock.withLock {
            writes.append(
                Write(method: request.method, path: request.path, query: request.query, form: form, referer: request.header("Referer")))
            return currentMode
        }
        switch mode {
        case .forbidden: return .text("<html><body>403 Forbidden</body></html>", status: 403, contentType: "text/html")
        case .rateLimited(let seconds):
            return .text("Too Many Requests", status: 429, contentType: "text/plain", headers: [("Retry-After", String(seconds))])
        default: return nil
        }
    }

    func topic(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        guard request.path == "/t/\(Self.topicID)" else { return .text("404", status: 404, contentType: "text/plain") }
        guard signedIn(request) else { return signInRedirect(request) }
        if request.method == "POST" {
            if let refusal = record(request) { return refusal }
            let form = Self.decodeForm(String(decoding: request.body, as: UTF8.self))
            if case .expiredOnce = mode {
                return .text(pageNow(problem: "你的回复操作已过期，请重新提交"), contentType: "text/html; charset=utf-8")
            }
            guard form["once"] == Self.once, request.header("Referer")?.hasSuffix("/t/\(Self.topicID)") == true,
                let content = form["content"], !content.isEmpty
            else { return .text(pageNow(problem: "请不要在每一个页面都同时提交"), contentType: "text/html; charset=utf-8") }
            let floor = lock.withLock {
                replies.append((99_000_000 + replies.count, content))
                return 29 + replies.count
            }
            return TestHTTPServer.Response(status: 302, headers: [("Location", "/t/\(Self.topicID)#reply\(floor)")])
        }
        return .text(pageNow(problem: nil), contentType: "text/html; charset=utf-8")
    }

    /// The topic page as it stands: posted replies added, the favourite link as it is.
    func pageNow(problem: String?) -> String {
        var text = page
        let (posted, favourite) = lock.withLock { (replies, favourited) }
        if favourite {
            text = text.replacingOccurrences(of: "/favorite/topic/\(Self.topicID)?once=", with: "/unfavorite/topic/\(Self.topicID)?once=")
                .replacingOccurrences(of: ">加入收藏<", with: ">取消收藏<")
        }
        let marker = "<div id=\"r_16535109\" class=\"cell\">"
        var blocks = ""
        for (index, reply) in posted.enumerated() {
            let escaped = reply.text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\n", with: "<br />")
            blocks += """
                <div id="r_\(reply.id)" class="cell"><table><tr><td width="auto" valign="top" align="left">\
                <div class="fr"><span class="no">\(30 + index)</span></div>\
                <strong><a href="/member/me" class="dark">me</a></strong> <span class="ago" title="2025-07-25 12:00:00 +08:00">刚刚</span>\
                <div class="reply_content">\(escaped)</div></td></tr></table></div>

                """
        }
        text = text.replacingOccurrences(of: marker, with: blocks + marker)
        if let problem {
            text = text.replacingOccurrences(
                of: "<div id=\"Main\">", with: "<div id=\"Main\"><div class=\"problem\"><ul><li>\(problem)</li></ul></div>")
        }
        return text
    }

    func thank(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        guard signedIn(request) else { return .text("{\"success\": false, \"message\": \"请先登录\"}", status: 403) }
        if let refusal = record(request) { return refusal }
        guard request.method == "POST", request.query == "once=\(Self.once)" else {
            return .text("{\"success\": false, \"message\": \"操作已过期\"}")
        }
        let target = String(request.path.dropFirst("/thank/".count))
        let first = lock.withLock { thanked.insert(target).inserted }
        return first
            ? .text("{\"success\": true, \"once\": \"84539\"}")
            : .text("{\"success\": false, \"message\": \"你已经发送过感谢了\"}")
    }

    func favourite(_ request: TestHTTPServer.Request, on: Bool) -> TestHTTPServer.Response {
        guard signedIn(request) else { return signInRedirect(request) }
        if let refusal = record(request) { return refusal }
        if request.query == "once=\(Self.once)" { lock.withLock { favourited = on } }
        return TestHTTPServer.Response(status: 302, headers: [("Location", "/t/\(Self.topicID)")])
    }

    func mission(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        guard signedIn(request) else { return signInRedirect(request) }
        if request.path == "/mission/daily/redeem" {
            if let refusal = record(request) { return refusal }
            if request.query == "once=\(Self.once)" {
                lock.withLock {
                    if !claimed { streak += 1 }
                    claimed = true
                }
            }
            return TestHTTPServer.Response(status: 302, headers: [("Location", "/mission/daily")])
        }
        let (done, days) = lock.withLock { (claimed, streak) }
        let body =
            done
            ? "<div class=\"message\">已成功领取每日登录奖励</div><div class=\"cell\">每日登录奖励已领取</div><div class=\"cell\">已连续登录 \(days) 天</div>"
            : "<input type=\"button\" class=\"super normal button\" value=\"领取 X 铜币\" onclick=\"location.href = '/mission/daily/redeem?once=\(Self.once)';\" /><div class=\"cell\">已连续登录 \(days) 天</div>"
        return .text(
            "<html><body><div id=\"Main\"><div class=\"box\">\(body)</div></div></body></html>", contentType: "text/html; charset=utf-8")
    }

    static func decodeForm(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
