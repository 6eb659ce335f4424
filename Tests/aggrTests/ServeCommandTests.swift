import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr serve` end to end: the real binaries on 127.0.0.1, requests through libcurl (the
/// curl tool, with a cookie jar), state changes checked through `aggr timeline`.
class ServeTestCase: EndToEndTestCase {
    /// Items covering what the pages show: a V2EX topic with replies, a shot, a hostile item.
    static let items = """
        {"provider":"v2ex","section":"hot","id":"1001","kind":"topic","title":"数据库选型讨论","url":"https://www.v2ex.com/t/1001","author":"alice","published":"2026-11-20T10:00:00Z","updated":null,"summary":"哪个数据库好","tags":[],"metrics":{"replies":2,"views":120},"image":null,"extra":{"node":"programmer"},"content":"<p>SQLite 还是 <b>PostgreSQL</b>？</p>"}
        {"provider":"v2ex","section":"hot","id":"reply/1","kind":"reply","title":"Re: 数据库选型讨论","url":"https://www.v2ex.com/t/1001#r_1","author":"bob","published":"2026-11-20T10:05:00Z","updated":null,"summary":"SQLite 足够","tags":[],"metrics":{},"image":null,"extra":{"topic":"1001","floor":"1"},"content":"SQLite 足够"}
        {"provider":"v2ex","section":"hot","id":"reply/2","kind":"reply","title":"Re: 数据库选型讨论","url":"https://www.v2ex.com/t/1001#r_2","author":"carol","published":"2026-11-20T10:06:00Z","updated":null,"summary":"看场景","tags":[],"metrics":{},"image":null,"extra":{"topic":"1001","floor":"2"},"content":"看场景"}
        {"provider":"shots","section":"popular","id":"s1","kind":"shot","title":"Ocean app","url":"https://dribbble.com/shots/1","author":"dana","published":"2026-11-20T09:00:00Z","updated":null,"summary":"","tags":[],"metrics":{"likes":42},"image":"https://cdn.dribbble.example/1.png","extra":{}}
        {"provider":"shots","section":"popular","id":"s2","kind":"shot","title":"Forest icons","url":"https://dribbble.com/shots/2","author":"eve","published":"2026-11-20T08:00:00Z","updated":null,"summary":"","tags":[],"metrics":{"likes":7},"image":"https://cdn.dribbble.example/2.png","extra":{}}
        {"provider":"blog","section":"feed","id":"x1","kind":"post","title":"Release 2.0 <script>document.body.appendChild(document.createElement('i')).id='xss'+'-title'</script>","url":"https://blog.example/x1","author":"mallory","published":"2026-11-20T07:00:00Z","updated":null,"summary":"hostile","tags":[],"metrics":{},"image":null,"extra":{},"content":"<p>Body<script>document.body.appendChild(document.createElement('i')).id='xss'+'-script'</script><img src=x onerror=\\"document.body.appendChild(document.createElement('i')).id='xss'+'-onerror'\\"><a id=jslink href=\\"javascript:document.body.appendChild(document.createElement('i')).id='xss'+'-link'\\">click</a><iframe src=\\"https://evil.example/\\"></iframe><svg onload=\\"alert(1)\\"></svg><style>body{display:none}</style></p>"}
        """

    var serve: BackgroundCommand?

    override func tearDown() {
        if let serve, serve.isRunning {
            serve.send(SIGTERM)
            _ = serve.waitForExit(timeout: 10)
        }
        serve = nil
        super.tearDown()
    }

    func writeConfig(_ extra: String = "") {
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "sections": ["hot"]},
              {"id": "shots", "type": "feed", "options": {"url": "https://dribbble.example/shots.rss"}},
              {"id": "blog", "type": "feed", "options": {"url": "https://blog.example/feed?token=FEEDS3CRET"}}
            ],
             "views": {"releases": "title ~ 'Release'", "chinese": "provider = v2ex"}\(extra)}
            """)
    }

    func importItems() throws {
        let result = try aggr("import", "-", input: Self.items)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Starts `aggr serve` on a free loopback port; its base URL.
    func startServe(_ arguments: [String] = ["--no-refresh"], environment extra: [String: String] = [:]) throws -> String {
        var environment = runner.environment.merging(extra) { $1 }
        environment.removeValue(forKey: "AGGR_NOW")
        let process = try BackgroundCommand(
            binary: runner.binary, arguments: ["serve", "--listen", "127.0.0.1:0"] + arguments, directory: directory.path,
            environment: environment)
        serve = process
        XCTAssertTrue(process.waitForOutput("listening on http://127.0.0.1:", timeout: 30), process.stderr)
        let text = process.stderr
        guard let range = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) else {
            throw XCTSkip("serve did not start: \(text)")
        }
        return String(text[range])
    }

    func session(_ base: String) -> CurlSession {
        CurlSession(baseURL: base, jar: directory.file("cookies-\(UUID().uuidString)"))
    }

    func unreadTitles() throws -> Set<String> {
        let result = try aggr("timeline", "--unread", "--all", "--format", "ndjson", "--limit", "100", "--no-dedupe")
        return Set(
            result.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["title"] as? String
            })
    }
}

final class ServeCommandTests: ServeTestCase {
    func testPagesShowTabsItemsGridAndThreadAndMarkReadIsVisibleToTheCLI() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        let browser = session(base)

        let home = try browser.send("GET", "/")
        XCTAssertEqual(home.status, 200)
        XCTAssertTrue(home.header("Set-Cookie")?.contains("HttpOnly; SameSite=Strict") == true, "\(home.headers)")
        XCTAssertTrue(home.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        for tab in ["v:releases", "v:chinese", "all", "p:v2ex", "p:shots", "p:blog"] {
            XCTAssertTrue(home.body.contains("data-tab=\"\(tab)\""), "tab \(tab)")
        }
        XCTAssertTrue(home.body.contains("数据库选型讨论"))
        XCTAssertTrue(home.body.contains("&lt;script&gt;"), "titles are escaped")
        XCTAssertFalse(home.body.contains("<script>document"), "no upstream script in the page")
        XCTAssertFalse(home.body.contains("FEEDS3CRET"))

        let shots = try browser.send("GET", "/?tab=p:shots")
        XCTAssertTrue(shots.body.contains("<ol class=\"grid\">"), "shots show as an image grid")
        XCTAssertTrue(
            shots.body.contains("src=\"https://cdn.dribbble.example/1.png\"") && shots.body.contains("referrerpolicy=\"no-referrer\""))

        let topic = try browser.send("GET", "/item/1")
        XCTAssertEqual(topic.status, 200)
        XCTAssertTrue(topic.body.contains("<b>PostgreSQL</b>"), "the content as safe HTML")
        XCTAssertTrue(topic.body.contains("2 replies") && topic.body.contains("SQLite 足够") && topic.body.contains("看场景"), "the thread")

        let bad = try browser.send("GET", "/?where=" + "title%20~")
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.body.contains("class=\"filter-error\""), "the filter error shows under the box")

        let search = try browser.send("GET", "/?q=" + "数据库".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        XCTAssertTrue(search.body.contains("数据库选型讨论"), search.body)
        XCTAssertFalse(search.body.contains("Ocean app"))

        // Mark read with the page's form token: visible through the CLI.
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: home.body))
        let marked = try browser.send("POST", "/item/4/read", form: [("csrf", token), ("state", "read"), ("back", "/?tab=p:shots")])
        XCTAssertEqual(marked.status, 303)
        XCTAssertEqual(marked.header("Location"), "/?tab=p:shots")
        XCTAssertFalse(try unreadTitles().contains("Ocean app"))
        let saved = try browser.send(
            "POST", "/item/5/save", form: [("csrf", token), ("state", "saved")], headers: [("Accept", "application/json")])
        XCTAssertEqual(saved.body, #"{"ref":5,"saved":true}"#)
        XCTAssertTrue(try aggr("timeline", "--saved", "--format", "tsv").stdout.contains("Forest icons"))

        // Mark the tab read.
        let tab = try browser.send("POST", "/tab/read", form: [("csrf", token), ("tab", "v:chinese")])
        XCTAssertEqual(tab.status, 303)
        XCTAssertEqual(
            try unreadTitles(),
            ["Forest icons", "Release 2.0 <script>document.body.appendChild(document.createElement('i')).id='xss'+'-title'</script>"])

        // Forged requests change nothing.
        let stranger = session(base)
        XCTAssertEqual(try stranger.send("POST", "/item/6/read", form: [("state", "read")]).status, 403, "no session, no token")
        XCTAssertEqual(try browser.send("POST", "/item/6/read", form: [("csrf", "0"), ("state", "read")]).status, 403, "wrong token")
        let crossSite = try browser.send(
            "POST", "/item/6/read", form: [("csrf", token), ("state", "read")], headers: [("Origin", "https://evil.example")])
        XCTAssertEqual(crossSite.status, 403)
        XCTAssertEqual(try browser.send("POST", "/item/6/read", form: [("csrf", token), ("state", "sideways")]).status, 400)
        XCTAssertEqual(try browser.send("POST", "/item/999/read", form: [("csrf", token), ("state", "read")]).status, 404)
        XCTAssertEqual(try browser.send("DELETE", "/item/6").status, 405)
        XCTAssertEqual(try browser.send("GET", "/nowhere").status, 404)
        XCTAssertEqual(try browser.send("GET", "/?tab=v:nope").status, 404)
        XCTAssertEqual(try browser.send("GET", "/?cursor=garbage").status, 400)
        XCTAssertTrue(try unreadTitles().contains("Forest icons"))

        serve?.send(SIGTERM)
        XCTAssertEqual(serve?.waitForExit(timeout: 15), 0, serve?.stderr ?? "")
    }

    /// What a day in the pages ran into: opening an item reads it, one counts as one, a saved
    /// item is marked in the list, the buttons say what they do, and a mistyped tab is answered.
    func testOpeningReadsAndThePagesSayTheStateInWords() throws {
        writeConfig()
        try importItems()
        let single = """
            {"provider":"blog","section":"feed","id":"x2","kind":"post","title":"One reply only","url":"https://blog.example/x2","author":"someone@example.com (张三)","published":"2026-11-20T06:00:00Z","updated":null,"summary":"","tags":[],"metrics":{"replies":1,"likes":1},"image":null,"extra":{}}
            """
        XCTAssertEqual(try aggr("import", "-", input: single).status, 0)
        let base = try startServe()
        let browser = session(base)

        XCTAssertTrue(try unreadTitles().contains("Ocean app"))
        let opened = try browser.send("GET", "/item/4")
        XCTAssertEqual(opened.status, 200)
        XCTAssertTrue(opened.body.contains("<article class=\"item-page read\""), "the page shows it read")
        XCTAssertTrue(opened.body.contains(">Mark unread</button>"), "the button says what it does")
        XCTAssertFalse(try unreadTitles().contains("Ocean app"), "opening an item marks it read, as the reader does")

        let single7 = try browser.send("GET", "/item/7")
        XCTAssertTrue(single7.body.contains("<span>1 reply</span>") && single7.body.contains("<span>1 like</span>"), single7.body)
        XCTAssertFalse(single7.body.contains("1 replies") || single7.body.contains("1 likes"))
        let show = try aggr("show", "7")
        XCTAssertTrue(show.stdout.contains("1 reply · 1 like"), show.stdout)

        let home = try browser.send("GET", "/?tab=p:blog")
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: home.body))
        XCTAssertTrue(home.body.contains(">Mark read</button>"), "an unread row offers Mark read")
        XCTAssertEqual(try browser.send("POST", "/item/6/save", form: [("csrf", token), ("state", "saved")]).status, 303)
        let list = try browser.send("GET", "/?tab=p:blog")
        XCTAssertTrue(list.body.contains("<li class=\"item unread saved\" data-ref=\"6\""), "a saved row carries its mark")
        XCTAssertTrue(list.body.contains("<li class=\"item read\" data-ref=\"7\""))
        // The page links its stylesheet by a fingerprint of its text, so an upgrade is seen at once.
        let link = try XCTUnwrap(list.body.range(of: #"/static/app\.css\?v=[0-9a-f]+"#, options: .regularExpression))
        let versioned = try browser.send("GET", String(list.body[link]))
        XCTAssertTrue(versioned.body.contains(".saved > .body .title::after"), "the saved mark is drawn")
        XCTAssertEqual(versioned.header("Cache-Control"), "public, max-age=31536000, immutable")
        let plain = try browser.send("GET", "/static/app.css")
        XCTAssertEqual(plain.header("Cache-Control"), "no-cache", "an unversioned URL is revalidated")
        let etag = try XCTUnwrap(plain.header("ETag"))
        XCTAssertEqual(try browser.send("GET", "/static/app.css", headers: [("If-None-Match", etag)]).status, 304)

        for bogus in ["bogus", "v2ex", "p"] {
            let page = try browser.send("GET", "/?tab=" + bogus)
            XCTAssertEqual(page.status, 404, bogus)
            XCTAssertTrue(page.body.contains("tab=\(bogus) is not a tab"), page.body)
        }
        XCTAssertEqual(try browser.send("GET", "/?tab=all").status, 200)
        XCTAssertEqual(try browser.send("POST", "/tab/read", form: [("csrf", token), ("tab", "nonsense")]).status, 404)

        // Search results show where the word matched, escaped, the match marked.
        let query = "数据库".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let found = try browser.send("GET", "/?q=\(query)")
        XCTAssertTrue(found.body.contains("<p class=\"snippet\">哪个<mark>数据库</mark>好</p>"), found.body)
        XCTAssertTrue(found.body.contains("3 matches for “数据库” in All</span> · <a href=\"/?tab=all\">Clear the search</a>"), found.body)
        XCTAssertTrue(try unreadTitles().contains("Forest icons"), "a refused tab marks nothing")
    }

    /// `serve --no-refresh` follows providers.json: a provider added while it runs gets its tab
    /// and feed, and a broken edit keeps the last good config.
    func testServeWithoutTheSchedulerFollowsProvidersJSON() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        let browser = session(base)
        XCTAssertEqual(try browser.send("GET", "/?tab=p:notes").status, 404)
        directory.write(
            "providers.json",
            #"{"providers": [{"id": "blog", "type": "feed", "options": {"url": "https://blog.example/feed"}}, "#
                + #"{"id": "notes", "type": "feed", "options": {"url": "https://notes.example/feed"}}]}"#)
        XCTAssertTrue(serve?.waitForOutput("providers.json changed: reloaded", timeout: 10) ?? false, serve?.stderr ?? "")
        let tab = try browser.send("GET", "/?tab=p:notes")
        XCTAssertEqual(tab.status, 200)
        XCTAssertTrue(tab.body.contains("data-tab=\"p:notes\""))
        XCTAssertFalse(tab.body.contains("data-tab=\"p:shots\""), "a removed provider's tab is gone")
        XCTAssertEqual(try browser.send("GET", "/feeds/provider/notes.atom").status, 200)
        directory.write("providers.json", #"{"providers": [{"id": "blog", "type": "nope"}]}"#)
        XCTAssertTrue(serve?.waitForOutput("keeping the last good config", timeout: 10) ?? false, serve?.stderr ?? "")
        XCTAssertEqual(try browser.send("GET", "/?tab=p:notes").status, 200, "the last good config still serves")
    }

    func testFeedsAreValidAtomAndJSONWithValidatorsAnd304() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        let reader = session(base)
        let atom = try reader.send("GET", "/feeds/all.atom")
        XCTAssertEqual(atom.status, 200)
        XCTAssertEqual(atom.header("Content-Type"), "application/atom+xml; charset=utf-8")
        XCTAssertFalse(
            atom.body.contains("-script'") || atom.body.contains("onerror") || atom.body.contains("javascript:"),
            "content is sanitized before it is served: \(atom.body)")
        let etag = try XCTUnwrap(atom.header("ETag"))
        XCTAssertEqual(try reader.send("GET", "/feeds/all.atom", headers: [("If-None-Match", etag)]).status, 304)
        let modified = try XCTUnwrap(atom.header("Last-Modified"))
        XCTAssertEqual(try reader.send("GET", "/feeds/all.atom", headers: [("If-Modified-Since", modified)]).status, 304)

        let parsed = try feedparser(atom.body)
        XCTAssertEqual(parsed["bozo"] as? Int, 0, "feedparser reads it without complaint: \(parsed)")
        XCTAssertEqual((parsed["titles"] as? [String])?.count, 6)

        let view = try reader.send("GET", "/feeds/view/releases.atom")
        XCTAssertEqual(
            try feedparser(view.body)["titles"] as? [String],
            ["Release 2.0 <script>document.body.appendChild(document.createElement('i')).id='xss'+'-title'</script>"])
        let provider = try reader.send("GET", "/feeds/provider/shots.json")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(provider.body.utf8)) as? [String: Any])
        XCTAssertEqual(json["version"] as? String, "https://jsonfeed.org/version/1.1")
        XCTAssertEqual((json["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["Ocean app", "Forest icons"])
        let search = try reader.send("GET", "/feeds/search.atom?q=" + "数据库".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let found = try XCTUnwrap(try feedparser(search.body)["titles"] as? [String])
        XCTAssertTrue(found.contains("数据库选型讨论") && !found.contains("Ocean app"), "\(found)")
        let opml = try reader.send("GET", "/opml")
        XCTAssertTrue(opml.body.contains("<opml version=\"2.0\">"))
        XCTAssertTrue(opml.body.contains("xmlUrl=\"https://blog.example/feed?token=REDACTED\""), opml.body)
        XCTAssertEqual(try reader.send("GET", "/feeds/view/nope.atom").status, 404)
        XCTAssertEqual(try reader.send("GET", "/feeds/all.rss").status, 404)
        XCTAssertEqual(try reader.send("GET", "/feeds/search.atom").status, 400)
        XCTAssertEqual(try reader.send("POST", "/feeds/all.atom").status, 405)
    }

    /// Feeds, pages and Reader API lists go gzip-encoded to clients that ask for it (a
    /// 550 KB feed went whole): curl and feedparser read them, and the ETag turns weak and
    /// still answers 304.
    func testAnswersAreGzippedForClientsThatAskForIt() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        func fetch(_ path: String, _ options: [String]) throws -> (headers: String, body: Data) {
            let headers = directory.file("headers-\(UUID().uuidString)")
            let result = try ToolOutput.run("/usr/bin/curl", ["-s", "-D", headers] + options + [base + path])
            return (try String(contentsOfFile: headers, encoding: .utf8).lowercased(), result.stdout)
        }
        let identity = try fetch("/feeds/all.atom", [])
        XCTAssertGreaterThan(identity.body.count, 1_024, "big enough to compress")
        XCTAssertFalse(identity.headers.contains("content-encoding"), identity.headers)
        XCTAssertTrue(identity.headers.contains("vary: accept-encoding"), identity.headers)
        let packed = try fetch("/feeds/all.atom", ["-H", "Accept-Encoding: gzip"])
        XCTAssertTrue(packed.headers.contains("content-encoding: gzip"), packed.headers)
        XCTAssertEqual(Array(packed.body.prefix(2)), [0x1F, 0x8B])
        XCTAssertLessThan(packed.body.count, identity.body.count / 2, "\(packed.body.count) of \(identity.body.count) bytes")
        XCTAssertEqual(try fetch("/feeds/all.atom", ["--compressed"]).body, identity.body, "curl decodes it to the same feed")
        let etag = try XCTUnwrap(packed.headers.components(separatedBy: "\r\n").first { $0.hasPrefix("etag: ") }?.dropFirst(6))
        XCTAssertTrue(etag.hasPrefix("w/\""), String(etag))
        let original = try XCTUnwrap(
            try session(base).send("GET", "/feeds/all.atom", headers: [("Accept-Encoding", "gzip")]).header("ETag"))
        let again = try fetch("/feeds/all.atom", ["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \(original)"])
        XCTAssertTrue(again.headers.hasPrefix("http/1.1 304"), again.headers)
        XCTAssertFalse(try fetch("/feeds/all.atom", ["-H", "Accept-Encoding: gzip;q=0"]).headers.contains("content-encoding"))
        XCTAssertTrue(try fetch("/", ["-H", "Accept-Encoding: br, gzip"]).headers.contains("content-encoding: gzip"), "pages too")

        // feedparser fetches over HTTP (urllib asks for gzip) and reads every entry.
        let result = try ToolOutput.run(
            "/usr/bin/python3",
            [
                "-c",
                "import feedparser, json, sys; d = feedparser.parse(sys.argv[1]); "
                    + "print(json.dumps({'bozo': int(d.bozo), 'n': len(d.entries), 'encoding': d.headers.get('content-encoding', '')}))",
                base + "/feeds/all.atom",
            ])
        guard result.status == 0 else { throw XCTSkip("python3-feedparser is not installed (scripts/bootstrap installs it)") }
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(parsed["n"] as? Int, 6, "\(parsed)")
        XCTAssertEqual(parsed["encoding"] as? String, "gzip")
        XCTAssertEqual(parsed["bozo"] as? Int, 0)
    }

    /// Python's feedparser (Debian python3-feedparser) on `text`: `bozo` and the titles.
    func feedparser(_ text: String) throws -> [String: Any] {
        let file = directory.file("feed-\(UUID().uuidString).xml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try ToolOutput.run(
            "/usr/bin/python3",
            [
                "-c",
                "import feedparser, json, sys; d = feedparser.parse(sys.argv[1]); print(json.dumps({'bozo': int(d.bozo), 'titles': [e.title for e in d.entries]}))",
                file,
            ])
        guard result.status == 0 else { throw XCTSkip("python3-feedparser is not installed (scripts/bootstrap installs it)") }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    func testAPasswordIsRequiredBeyondLoopbackAndLoginsAreRateLimited() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let open = try runner.run(["serve", "--listen", "0.0.0.0:0", "--no-refresh"], in: directory.path, timeout: 30)
        XCTAssertEqual(open.status, 78, open.stderr)
        XCTAssertTrue(open.stderr.contains("refusing to listen on 0.0.0.0:0 without a password"), open.stderr)

        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        let browser = session(base)
        let home = try browser.send("GET", "/")
        XCTAssertEqual(home.status, 303)
        XCTAssertEqual(home.header("Location"), "/login")
        let login = try browser.send("GET", "/login")
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: login.body))
        XCTAssertEqual(try browser.send("GET", "/feeds/all.atom").status, 401)
        XCTAssertEqual(try browser.send("GET", "/feeds/all.atom", user: "me:PASSW0RD-S3CRET").status, 200, "feed readers use Basic auth")
        XCTAssertEqual(try browser.send("POST", "/item/1/read", form: [("csrf", token), ("state", "read")]).status, 401)
        // A feed reader with a stale password retries all day: that is one wrong password,
        // not a guesser, and locks nobody out.
        for _ in 0..<20 {
            XCTAssertEqual(try browser.send("GET", "/feeds/all.atom", user: "me:old-password").status, 401)
        }
        XCTAssertEqual(
            try browser.send("GET", "/feeds/all.atom", user: "me:PASSW0RD-S3CRET").status, 200, "the stale one locked no one out")
        for guess in 0..<5 {
            XCTAssertEqual(try browser.send("POST", "/login", form: [("csrf", token), ("password", "guess\(guess)")]).status, 403)
        }
        let throttled = try browser.send("POST", "/login", form: [("csrf", token), ("password", "PASSW0RD-S3CRET")])
        XCTAssertEqual(throttled.status, 429, "after five different wrong passwords even the right one waits")
        XCTAssertEqual(try browser.send("GET", "/feeds/all.atom", user: "me:PASSW0RD-S3CRET").status, 401, "feeds wait too")
        XCTAssertNotNil(throttled.header("Retry-After"))
        XCTAssertEqual(
            try aggr("timeline", "--unread", "--all", "--no-dedupe", "--format", "ndjson").stdout.split(separator: "\n").count, 6,
            "nothing changed")
        XCTAssertFalse(serve?.stderr.contains("PASSW0RD") ?? true)
    }

    func testSignInWorksAndServeRefreshesInProcess() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed.xml") { _ in
            .text(
                "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Live</title><item><title>Fresh from the scheduler</title><link>https://live.example/1</link><guid>1</guid><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>",
                contentType: "application/rss+xml")
        }
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "live", "type": "feed", "options": {"url": "\(server.baseURL)/feed.xml"}}],
             "serve": {"password_env": "AGGR_PASSWORD"}}
            """)
        let base = try startServe([], environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        XCTAssertTrue(serve?.waitForOutput("live feed: 1 new") ?? false, serve?.stderr ?? "")
        let browser = session(base)
        let login = try browser.send("GET", "/login")
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: login.body))
        let signedIn = try browser.send("POST", "/login", form: [("csrf", token), ("password", "PASSW0RD-S3CRET"), ("next", "/?tab=all")])
        XCTAssertEqual(signedIn.status, 303)
        XCTAssertEqual(signedIn.header("Location"), "/?tab=all")
        let home = try browser.send("GET", "/")
        XCTAssertEqual(home.status, 200)
        XCTAssertTrue(home.body.contains("Fresh from the scheduler"))
        // A second writer is refused while serve refreshes a SQLite file (on PostgreSQL
        // writers share the refresh: WorkerTests).
        if !onPostgres {
            let watch = try aggr("watch", "--once")
            XCTAssertEqual(watch.status, 75, watch.stderr)
            let pid = try XCTUnwrap(serve?.pid)
            XCTAssertTrue(
                watch.stderr.contains("aggr serve (pid \(pid)) is already refreshing this database"), "names serve: \(watch.stderr)")
        }
        serve?.send(SIGTERM)
        XCTAssertEqual(serve?.waitForExit(timeout: 15), 0, serve?.stderr ?? "")
        let log = serve?.stderr ?? ""
        XCTAssertFalse(log.contains("PASSW0RD"))
        let stamp = #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#
        XCTAssertNil(log.range(of: "\(stamp) \(stamp)", options: .regularExpression), "one timestamp per line: \(log)")
        XCTAssertNotNil(log.range(of: "\(stamp) live feed: 1 new", options: .regularExpression), log)
    }

    func testTheItemPageFetchesRepliesThatAreNotStored() throws {
        let server = try refreshedV2EXHotList()
        defer { server.stop() }
        // Stored in upstream order: 700001 (42 replies), 700002 (none), 700003 (one).
        let (topic, quiet, broken) = (1, 2, 3)

        let browser = session(try startServe())
        var page = try browser.send("GET", "/item/\(topic)")
        XCTAssertTrue(page.body.contains("Fetch the replies"), page.body)
        XCTAssertFalse(page.body.contains("Swift，因为 SwiftUI。"))
        XCTAssertFalse(try browser.send("GET", "/item/\(quiet)").body.contains("Fetch the replies"), "no replies to fetch")
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: page.body))
        XCTAssertEqual(try browser.send("POST", "/item/\(topic)/thread", form: [("csrf", "0")]).status, 403, "a forged form")
        XCTAssertEqual(server.requests.filter { $0.path == "/api/replies/show.json" }.count, 0)

        let fetched = try browser.send("POST", "/item/\(topic)/thread", form: [("csrf", token)])
        XCTAssertEqual(fetched.status, 303)
        XCTAssertEqual(fetched.header("Location"), "/item/\(topic)#thread")
        page = try browser.send("GET", "/item/\(topic)")
        XCTAssertTrue(page.body.contains("Swift，因为 SwiftUI。") && page.body.contains("1 reply"), page.body)
        XCTAssertEqual(server.requests.filter { $0.path == "/api/replies/show.json" }.count, 1)

        // An upstream fault comes back to the page as a reason, escaped.
        let failed = try browser.send("POST", "/item/\(broken)/thread", form: [("csrf", token)])
        let location = try XCTUnwrap(failed.header("Location"))
        page = try browser.send("GET", location)
        XCTAssertTrue(page.body.contains("Replies not fetched: v2ex topic/700003"), page.body)
    }
}
