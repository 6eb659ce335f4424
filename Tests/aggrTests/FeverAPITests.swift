import Aggregator
import AggregatorTestSupport
import XCTest

/// The Fever API end to end: Fluent Reader's sync replayed request for request
/// (`Scripts/fever_sync.py`), the calls Reeder and Unread make, and sites' icons fetched
/// once from loopback sites and served from aggr.
final class FeverAPITests: ServeTestCase {
    static let password = "PASSW0RD-S3CRET"
    /// A site with an icon its home page links, and one with none (everything 404).
    var site: TestHTTPServer!
    var bare: TestHTTPServer!
    /// A 1×1 PNG.
    static let png: [UInt8] = Array(
        Data(
            base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!)

    override func setUpWithError() throws {
        try super.setUpWithError()
        site = try TestHTTPServer()
        bare = try TestHTTPServer()
        site.route("/") { _ in
            .text(
                #"<html><head><link rel="apple-touch-icon" href="/touch.png"><link rel="icon" sizes="32x32" href="/static/icon.png"></head></html>"#,
                contentType: "text/html")
        }
        site.route("/static/icon.png") { _ in TestHTTPServer.Response(headers: [("Content-Type", "image/png")], body: Self.png) }
        site.route("/feed.xml") { _ in .text("<rss version=\"2.0\"><channel><title>Site</title></channel></rss>") }
        bare.route("/") { _ in .text("not here", status: 404, contentType: "text/plain") }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "web_url": "\(bare.baseURL)", "sections": ["hot"]},
              {"id": "site", "type": "feed", "options": {"url": "\(site.baseURL)/feed.xml"}}
            ],
             "serve": {"password_env": "AGGR_PASSWORD"}}
            """)
        var lines = Self.items.split(separator: "\n").filter { $0.contains(#""provider":"v2ex""#) }.map(String.init)
        for number in 1...120 {
            lines.append(Self.post(number, title: "Post \(number)"))
        }
        let imported = try aggr("import", "-", input: lines.joined(separator: "\n"))
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    override func tearDown() {
        site?.stop()
        bare?.stop()
        super.tearDown()
    }

    static func post(_ number: Int, title: String) -> String {
        // Published in an order of their own: Fever pages by when items reached aggr.
        let day = 10 + (number * 7) % 15
        return
            #"{"provider":"site","section":"feed","id":"p\#(number)","kind":"post","title":"\#(title)","url":"https://site.example/\#(number)","author":"ann","published":"2026-11-\#(day)T10:00:00Z","updated":null,"summary":"text \#(number)","tags":[],"metrics":{},"image":null,"extra":{}}"#
    }

    func script(_ base: String, _ arguments: [String]) throws -> [String: Any] {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let run = try ToolOutput.run(
            "/usr/bin/timeout",
            ["60", "python3", here.appendingPathComponent("Scripts/fever_sync.py").path, base + "/fever/", "aggr", Self.password]
                + arguments)
        XCTAssertEqual(run.status, 0, "the replayed client failed: \(run.text)")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.text.utf8)) as? [String: Any], run.text)
    }

    func testFluentReaderSyncsThroughFeverWithIconsServedByAggr() throws {
        let base = try startServe(environment: ["AGGR_PASSWORD": Self.password])
        let seen = try script(base, ["first"])
        XCTAssertEqual(seen["wrong_key_auth"] as? Int, 0)
        XCTAssertEqual(seen["auth"] as? Int, 1)
        XCTAssertEqual(seen["api_version"] as? Int, 3)
        XCTAssertEqual(
            seen["feeds"] as? [String],
            ["site/feed <\(site.baseURL)/feed.xml> in site", "v2ex/hot <\(base)/feeds/provider/v2ex.atom> in v2ex"])
        XCTAssertEqual(seen["feed_ids_are_ints"] as? Bool, true)
        XCTAssertEqual(seen["items"] as? Int, 123, "every item, paged 50 at a time")
        XCTAssertEqual(seen["item_calls"] as? Int, 3)
        XCTAssertEqual(seen["use_int32"] as? Bool, false, "2^53-1 as max_id is understood")
        XCTAssertEqual(seen["distinct"] as? Int, 123)
        XCTAssertEqual(seen["every_item_has_its_feed"] as? Bool, true)
        XCTAssertEqual(seen["titles"] as? [String], ["Re: 数据库选型讨论", "数据库选型讨论"])
        XCTAssertEqual(seen["html_of_topic"] as? String, "<p>SQLite 还是 <b>PostgreSQL</b>？</p>")
        XCTAssertEqual(seen["unread_before"] as? Int, 123)
        XCTAssertEqual(seen["saved_before"] as? String, "")
        let starred = try XCTUnwrap(seen["starred_one"] as? Int)
        XCTAssertEqual(seen["saved_after"] as? String, String(starred), "saved, saved, unsaved: one left")
        XCTAssertEqual(seen["unread_after"] as? Int, 119, "one item read, one read and unread again, the v2ex feed's three read")
        XCTAssertEqual(seen["favicons"] as? [String], ["image/png png=True \(Self.png.count)"])
        XCTAssertEqual(seen["icon_of_site"] as? [String], ["site"], "the feed's favicon_id is its site's icon")

        // What the app changed is what the CLI sees.
        let unread = try aggr("timeline", "--unread", "--all", "--no-dedupe", "--limit", "1000", "--format", "ndjson").stdout
        XCTAssertEqual(unread.split(separator: "\n").count, 119)
        XCTAssertFalse(unread.contains("数据库"), "the v2ex feed was marked read")
        let saved = try aggr("timeline", "--saved", "--format", "ndjson").stdout.split(separator: "\n")
        XCTAssertEqual(saved.count, 1)
        XCTAssertFalse(try aggr("timeline", "--all", "--format", "ndjson").stdout.isEmpty)

        // The next sync gets what was stored since, whatever its date, in one call.
        let lastID = try XCTUnwrap(seen["last_id"] as? Int)
        let later = [Self.post(500, title: "Late A"), Self.post(501, title: "Late B")].joined(separator: "\n")
        XCTAssertEqual(try aggr("import", "-", input: later).status, 0)
        let next = try script(base, ["since", String(lastID)])
        XCTAssertEqual(next["new_titles"] as? [String], ["Late A", "Late B"])
        XCTAssertEqual(next["item_calls"] as? Int, 1)

        // The icon was fetched once, from the page's 32 px link, and is served from aggr.
        let client = session(base)
        let icon = try client.send("GET", "/favicons/site")
        XCTAssertEqual(icon.status, 200)
        XCTAssertEqual(icon.header("Content-Type"), "image/png")
        XCTAssertEqual(icon.header("Content-Length"), String(Self.png.count))
        XCTAssertTrue(icon.body.hasPrefix("\u{FFFD}PNG"), "the PNG's own bytes")
        let fetched = site.requests.map(\.path).filter { $0 != "/feed.xml" }
        XCTAssertEqual(fetched, ["/", "/static/icon.png"], "fetched once, kept, then served: \(fetched)")
        let letter = try client.send("GET", "/favicons/v2ex")
        XCTAssertEqual(letter.status, 200)
        XCTAssertEqual(letter.header("Content-Type"), "image/svg+xml")
        XCTAssertTrue(letter.body.contains(">V</text>"), letter.body)
        XCTAssertEqual(bare.requests.map(\.path), ["/", "/favicon.ico"], "a site without an icon is asked once")
        XCTAssertEqual(try client.send("GET", "/favicons/nobody").status, 404)
        XCTAssertFalse(serve?.stderr.contains(RequestSigner.md5Hex("aggr:\(Self.password)")) ?? true, "the key stays out of the log")
    }

    /// The calls Reeder and Unread make (Fever's own documentation): `since_id` upwards,
    /// `with_ids`, the key in the query, FreshRSS's `/api/fever.php` path, groups read.
    func testRequestsAsReederAndUnreadSendThem() throws {
        let base = try startServe(environment: ["AGGR_PASSWORD": Self.password])
        let client = session(base)
        let key = RequestSigner.md5Hex("aggr:\(Self.password)")
        func call(_ path: String, _ form: [(String, String)] = []) throws -> [String: Any] {
            let answer = try client.send("POST", path, form: [("api_key", key)] + form)
            XCTAssertEqual(answer.status, 200, "\(path): \(answer.body)")
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], answer.body)
        }
        func ids(_ answer: [String: Any]) -> [Int] { (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int } }

        // Reeder pages upwards from since_id=0 until a page comes back empty.
        var seen: [Int] = []
        var since = 0
        var calls = 0
        while calls < 10 {
            let page = ids(try call("/api/fever.php?api&items&since_id=\(since)"))
            calls += 1
            guard let last = page.last else { break }
            XCTAssertEqual(page, page.sorted(), "since_id pages go upwards")
            seen += page
            since = last
        }
        XCTAssertEqual(seen.count, 123)
        XCTAssertEqual(calls, 4)
        let total = try call("/fever/?api&items")
        XCTAssertEqual(total["total_items"] as? Int, 123)
        XCTAssertEqual(ids(total), Array(seen.prefix(50)), "no argument: the oldest 50")
        XCTAssertEqual(ids(try call("/fever/?api&items&max_id=\(seen[10])")), Array(seen.prefix(10).reversed()))
        let picked = [seen[5], seen[70], seen[3]]
        XCTAssertEqual(Set(ids(try call("/fever/?api&items&with_ids=\(picked.map(String.init).joined(separator: ","))"))), Set(picked))

        // Unread marks a group read (id 0 is every feed), with `before` bounding what it read.
        let groups = try XCTUnwrap(try call("/fever/?api&groups")["groups"] as? [[String: Any]])
        XCTAssertEqual(Set(groups.compactMap { $0["title"] as? String }), ["v2ex", "site"])
        let siteGroup = try XCTUnwrap(groups.first { $0["title"] as? String == "site" }?["id"] as? Int)
        let old = try call("/fever/?api", [("mark", "group"), ("as", "read"), ("id", String(siteGroup)), ("before", "1000")])
        XCTAssertEqual((old["unread_item_ids"] as? String)?.split(separator: ",").count, 123, "nothing reached aggr before 1970")
        let marked = try call("/fever/?api", [("mark", "group"), ("as", "read"), ("id", String(siteGroup))])
        XCTAssertEqual((marked["unread_item_ids"] as? String)?.split(separator: ",").count, 3, "the v2ex items are left")
        let everything = try call("/fever/?api", [("mark", "group"), ("as", "read"), ("id", "0")])
        XCTAssertEqual(everything["unread_item_ids"] as? String, "")

        // The key in the query, with GET; no key, a wrong one; mistakes named.
        let viaQuery = try client.send("GET", "/fever/?api&api_key=\(key)&saved_item_ids")
        XCTAssertTrue(viaQuery.body.contains(#""auth":1"#) && viaQuery.body.contains(#""saved_item_ids":"""#), viaQuery.body)
        let anonymous = try client.send("POST", "/fever/?api&items")
        XCTAssertEqual(anonymous.body, #"{"api_version":3,"auth":0}"#)
        let wrong = try client.send("POST", "/fever/?api&items", form: [("api_key", RequestSigner.md5Hex("aggr:guess"))])
        XCTAssertEqual(wrong.body, #"{"api_version":3,"auth":0}"#)
        XCTAssertEqual(try client.send("POST", "/fever/", form: [("api_key", key)]).status, 400, "without ?api")
        let badState = try client.send("POST", "/fever/?api", form: [("api_key", key), ("mark", "item"), ("as", "starred"), ("id", "1")])
        XCTAssertEqual(badState.status, 400)
        XCTAssertTrue(badState.body.contains("as must be read, unread, saved or unsaved"), badState.body)
        let badID = try client.send("POST", "/fever/?api&items&since_id=x", form: [("api_key", key)])
        XCTAssertEqual(badID.status, 400)
        XCTAssertTrue(badID.body.contains("since_id"), badID.body)
        let noItem = try client.send("POST", "/fever/?api", form: [("api_key", key), ("mark", "item"), ("as", "read"), ("id", "99999")])
        XCTAssertEqual(noItem.status, 400)
        XCTAssertTrue(noItem.body.contains("no item 99999"), noItem.body)
        XCTAssertEqual(try aggr("timeline", "--unread", "--all", "--format", "ndjson").stdout, "", "nothing else changed")

        // A user name of one's own changes the key; the Reader API names the user and its icons.
        let reader = try client.send("POST", "/accounts/ClientLogin", form: [("Email", "x"), ("Passwd", Self.password)])
        let auth = try XCTUnwrap(reader.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5)
        let list = try client.send("GET", "/reader/api/0/subscription/list", headers: [("Authorization", "GoogleLogin auth=\(auth)")])
        XCTAssertTrue(list.body.contains(#""iconUrl":"\#(base)/favicons/site""#), list.body)
    }

    func testTheUserNameIsConfigurable() throws {
        let config = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        directory.write("providers.json", config.replacingOccurrences(of: #""serve": {"#, with: #""serve": {"user": "ming", "#))
        let base = try startServe(environment: ["AGGR_PASSWORD": Self.password])
        let client = session(base)
        let ming = try client.send("POST", "/fever/?api", form: [("api_key", RequestSigner.md5Hex("ming:\(Self.password)"))])
        XCTAssertTrue(ming.body.contains(#""auth":1"#), ming.body)
        let aggrKey = try client.send("POST", "/fever/?api", form: [("api_key", RequestSigner.md5Hex("aggr:\(Self.password)"))])
        XCTAssertTrue(aggrKey.body.contains(#""auth":0"#), aggrKey.body)

        directory.write("providers.json", config.replacingOccurrences(of: #""serve": {"#, with: #""serve": {"user": "a:b", "#))
        let refused = try aggr("providers")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("serve.user"), refused.stderr)
    }
}
