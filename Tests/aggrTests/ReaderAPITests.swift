import Aggregator
import AggregatorTestSupport
import XCTest

/// The Google Reader API end to end, with a client written here: login, token, lists,
/// paging through ids, contents by every id form, edit-tag and mark-all-as-read, each
/// change checked through `aggr timeline`.
final class ReaderAPITests: ServeTestCase {
    /// A minimal reader app.
    struct ReaderClient {
        var http: CurlSession
        var auth = ""

        func get(_ path: String) throws -> CurlSession.Answer {
            try http.send("GET", path, headers: [("Authorization", "GoogleLogin auth=\(auth)")])
        }

        func post(_ path: String, _ form: [(String, String)]) throws -> CurlSession.Answer {
            try http.send("POST", path, form: form, headers: [("Authorization", "GoogleLogin auth=\(auth)")])
        }

        func json(_ path: String) throws -> [String: Any] {
            let answer = try get(path)
            XCTAssertEqual(answer.status, 200, "\(path): \(answer.body)")
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], answer.body)
        }
    }

    func saved() throws -> [String] {
        try aggr("timeline", "--saved", "--format", "tsv").stdout.split(separator: "\n").dropFirst().map {
            String($0.split(separator: "\t")[6])
        }
    }

    func unreadCount() throws -> Int {
        try aggr("timeline", "--unread", "--all", "--no-dedupe", "--format", "ndjson").stdout.split(separator: "\n").count
    }

    func testAReaderAppSyncsReadAndStarredState() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        var client = ReaderClient(http: session(base))

        // Login.
        XCTAssertEqual(try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "nope")]).status, 401)
        XCTAssertEqual(try client.get("/reader/api/0/user-info").status, 401, "no auth yet")
        let login = try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "anyone"), ("Passwd", "PASSW0RD-S3CRET")])
        XCTAssertEqual(login.status, 200)
        let fields = Dictionary(
            uniqueKeysWithValues: login.body.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            })
        XCTAssertNotNil(fields["SID"])
        XCTAssertNotNil(fields["LSID"])
        client.auth = try XCTUnwrap(fields["Auth"])
        XCTAssertFalse(client.auth.contains("PASSW0RD"))
        let token = try client.get("/reader/api/0/token")
        XCTAssertEqual(token.status, 200)
        let actionToken = token.body.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(actionToken.isEmpty)

        XCTAssertEqual(try client.json("/reader/api/0/user-info?output=json")["userName"] as? String, "aggr")
        let subscriptions = try XCTUnwrap(
            try client.json("/reader/api/0/subscription/list?output=json")["subscriptions"] as? [[String: Any]])
        let ids = subscriptions.compactMap { $0["id"] as? String }
        XCTAssertTrue(ids.contains("feed/v2ex/hot") && ids.contains("feed/shots/popular") && ids.contains("feed/blog/feed"), "\(ids)")
        let v2ex = try XCTUnwrap(subscriptions.first { $0["id"] as? String == "feed/v2ex/hot" })
        XCTAssertEqual((v2ex["categories"] as? [[String: Any]])?.first?["label"] as? String, "v2ex")
        XCTAssertFalse(String(describing: subscriptions).contains("FEEDS3CRET"), "credentials in feed URLs stay out")
        let tags = try XCTUnwrap(try client.json("/reader/api/0/tag/list?output=json")["tags"] as? [[String: Any]]).compactMap {
            $0["id"] as? String
        }
        XCTAssertEqual(
            tags,
            [
                "user/-/state/com.google/starred", "user/-/label/releases", "user/-/label/chinese", "user/-/label/v2ex",
                "user/-/label/shots",
                "user/-/label/blog",
            ])
        let counts = try XCTUnwrap(try client.json("/reader/api/0/unread-count?output=json")["unreadcounts"] as? [[String: Any]])
        func count(_ id: String) -> Int? { counts.first { $0["id"] as? String == id }?["count"] as? Int }
        XCTAssertEqual(count("user/-/state/com.google/reading-list"), 6)
        XCTAssertEqual(count("feed/v2ex/hot"), 3)
        XCTAssertEqual(count("user/-/label/releases"), 1)

        // Page through every id, two at a time.
        var seen: [String] = []
        var continuation: String?
        repeat {
            var path = "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=2&output=json"
            if let continuation { path += "&c=" + continuation }
            let page = try client.json(path)
            seen += (page["itemRefs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            continuation = page["continuation"] as? String
        } while continuation != nil && seen.count < 20
        XCTAssertEqual(seen.count, 6)
        XCTAssertEqual(Set(seen).count, 6, "no id twice across pages")
        let oldestFirst = try XCTUnwrap(try client.json("/reader/api/0/stream/items/ids?n=1&r=o")["itemRefs"] as? [[String: Any]])
        XCTAssertEqual(oldestFirst.first?["id"] as? String, "6", "r=o starts with the oldest item")
        // Every item was stored at the pinned AGGR_NOW, 2026-11-21T00:00:00Z = 1795219200.
        func windowIDs(_ parameters: String) throws -> Set<String> {
            let refs = try client.json("/reader/api/0/stream/items/ids?n=50&" + parameters)["itemRefs"] as? [[String: Any]]
            return Set(try XCTUnwrap(refs).compactMap { $0["id"] as? String })
        }
        XCTAssertEqual(try windowIDs("ot=1795219200").count, 6, "ot/nt bound the time an item was stored")
        XCTAssertEqual(try windowIDs("ot=1795219201"), [])
        XCTAssertEqual(try windowIDs("nt=1795219200"), [])
        XCTAssertEqual(try windowIDs("ot=1795163400&nt=1795219201").count, 6)

        // Contents by decimal and long ids.
        let contents = try client.post(
            "/reader/api/0/stream/items/contents",
            [("i", "1"), ("i", "tag:google.com,2005:reader/item/0000000000000004"), ("T", actionToken)])
        XCTAssertEqual(contents.status, 200, contents.body)
        let items = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(contents.body.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["title"] as? String }, ["数据库选型讨论", "Ocean app"])
        XCTAssertEqual(items.first?["id"] as? String, "tag:google.com,2005:reader/item/0000000000000001")
        XCTAssertEqual((items.first?["origin"] as? [String: Any])?["streamId"] as? String, "feed/v2ex/hot")

        // Read and starred, as reader apps send them (T empty, or missing).
        XCTAssertEqual(
            try client.post("/reader/api/0/edit-tag", [("i", "4"), ("a", "user/-/state/com.google/read"), ("T", "")]).body, "OK")
        XCTAssertEqual(try unreadCount(), 5)
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "5"), ("a", "user/1/state/com.google/starred")]).body, "OK")
        XCTAssertEqual(try saved(), ["Forest icons"])
        let unreadIDs = try XCTUnwrap(
            try client.json("/reader/api/0/stream/items/ids?n=50&xt=user/-/state/com.google/read")["itemRefs"] as? [[String: Any]])
        XCTAssertEqual(unreadIDs.count, 5)
        let unstarredIDs = try XCTUnwrap(
            try client.json("/reader/api/0/stream/items/ids?n=50&xt=user/-/state/com.google/starred")["itemRefs"] as? [[String: Any]])
        XCTAssertEqual(unstarredIDs.count, 5, "every item but the starred one")
        XCTAssertFalse(unstarredIDs.contains { $0["id"] as? String == "5" })
        let starred = try client.json("/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Fstarred?n=10")
        XCTAssertEqual((starred["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["Forest icons"])
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "4"), ("r", "user/-/state/com.google/read")]).body, "OK")
        XCTAssertEqual(try unreadCount(), 6)

        // Malformed requests change nothing.
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "zz-top"), ("a", "user/-/state/com.google/read")]).status, 400)
        XCTAssertEqual(
            try client.post("/reader/api/0/edit-tag", [("i", "1"), ("i", "nope"), ("a", "user/-/state/com.google/read")]).status, 400)
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("a", "user/-/state/com.google/read")]).status, 400)
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "1"), ("a", "user/-/state/com.google/fresh")]).status, 400)
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "1"), ("a", "user/-/label/v2ex")]).status, 400)
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "999"), ("a", "user/-/state/com.google/read")]).status, 404)
        XCTAssertEqual(
            try client.post("/reader/api/0/edit-tag", [("i", "1"), ("a", "user/-/state/com.google/read"), ("T", "wrong")]).status, 401)
        var stranger = client
        stranger.auth = "forged"
        XCTAssertEqual(try stranger.post("/reader/api/0/edit-tag", [("i", "1"), ("a", "user/-/state/com.google/read")]).status, 401)
        XCTAssertEqual(try client.get("/reader/api/0/stream/items/ids?n=0").status, 400)
        XCTAssertEqual(try client.get("/reader/api/0/stream/items/ids?s=feed/nope").status, 400)
        XCTAssertEqual(try client.get("/reader/api/0/stream/items/ids?c=garbage").status, 400)
        XCTAssertEqual(try client.get("/reader/api/0/nothing-here").status, 404)
        XCTAssertEqual(try unreadCount(), 6)
        XCTAssertEqual(try saved(), ["Forest icons"])

        // Mark a subscription read, then everything up to a moment.
        XCTAssertEqual(try client.post("/reader/api/0/mark-all-as-read", [("s", "feed/shots/popular"), ("T", actionToken)]).body, "OK")
        XCTAssertEqual(try unreadCount(), 4)
        XCTAssertEqual(
            try client.post("/reader/api/0/mark-all-as-read", [("s", "user/-/state/com.google/reading-list"), ("ts", "1795219199000000")])
                .body,
            "OK")
        XCTAssertEqual(try unreadCount(), 4, "only items stored up to ts: none")
        XCTAssertEqual(
            try client.post("/reader/api/0/mark-all-as-read", [("s", "user/-/state/com.google/reading-list"), ("ts", "1795219200000000")])
                .body,
            "OK")
        XCTAssertEqual(try unreadCount(), 0, "every item was stored by ts")
        XCTAssertEqual(try client.post("/reader/api/0/mark-all-as-read", [("s", "feed/unknown")]).status, 400)

        // An app with a stale password retrying is one wrong password, not five guesses.
        for _ in 0..<10 {
            XCTAssertEqual(try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "stale")]).status, 401)
        }
        XCTAssertEqual(try signIn(client, password: "PASSW0RD-S3CRET").isEmpty, false, "the stale app locked no one out")
        // Different wrong passwords are rate-limited with the web login.
        for guess in 0..<5 {
            XCTAssertEqual(
                try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "guess\(guess)")]).status, 401)
        }
        let throttled = try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "PASSW0RD-S3CRET")])
        XCTAssertEqual(throttled.status, 429)
        XCTAssertEqual(try client.get("/reader/api/0/user-info").status, 200, "a token already given keeps working")
        XCTAssertFalse(serve?.stderr.contains("PASSW0RD") ?? true)
    }

    /// A client syncing "since my last sync" (`ot`) gets every item stored since, however
    /// old its publication date; marking read up to its sync time (`ts`) leaves what arrived
    /// later unread; and item ids only grow, even after the newest item was removed.
    func testASyncSinceTheLastSyncGetsEveryItemStoredSinceWhateverItsDate() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()  // stored at 2026-11-21T00:00:00Z
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        var client = ReaderClient(http: session(base))
        client.auth = try signIn(client, password: "PASSW0RD-S3CRET")
        let lastSync = 1_795_262_400  // 2026-11-21T12:00:00Z
        func storedLater(_ id: String, published: String, at now: String) throws {
            let line =
                #"{"provider":"blog","section":"feed","id":"\#(id)","kind":"post","title":"Late \#(id)","url":"https://blog.example/\#(id)","#
                + #""author":null,"published":"\#(published)","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}"#
            let result = try runner.run(["import", "-"], in: directory.path, input: line, extraEnvironment: ["AGGR_NOW": now])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        // Fetched after the last sync, one of them published weeks before it.
        try storedLater("old", published: "2026-10-01T00:00:00Z", at: "2026-11-22T00:00:00Z")
        try storedLater("new", published: "2026-11-21T23:00:00Z", at: "2026-11-22T00:00:00Z")

        let since = try XCTUnwrap(
            try client.json("/reader/api/0/stream/items/ids?n=1000&ot=\(lastSync)&xt=user/-/state/com.google/read")["itemRefs"]
                as? [[String: Any]])
        let sinceIDs = since.compactMap { $0["id"] as? String }
        XCTAssertEqual(sinceIDs.count, 2, "\(sinceIDs)")
        let contents = try client.json("/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=100&ot=\(lastSync)")
        XCTAssertEqual(Set((contents["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }), ["Late old", "Late new"])
        let before = try client.json("/reader/api/0/stream/items/ids?n=1000&nt=\(lastSync)")["itemRefs"] as? [[String: Any]]
        XCTAssertEqual(before?.count, 6, "nt: what was stored before")

        // Marking read up to the sync time leaves what arrived since unread.
        let ts = String(lastSync) + "000000"
        XCTAssertEqual(
            try client.post("/reader/api/0/mark-all-as-read", [("s", "user/-/state/com.google/reading-list"), ("ts", ts)]).body, "OK")
        XCTAssertEqual(try unreadCount(), 2)

        // The newest item removed, the next one stored gets a number past it: an app that
        // cached the removed id never sees it again on another item.
        let newest = try XCTUnwrap(sinceIDs.compactMap { Int64($0) }.max())
        XCTAssertEqual(try aggr("prune", String(newest)).status, 0)
        try storedLater("later", published: "2026-11-22T01:00:00Z", at: "2026-11-22T02:00:00Z")
        let latest = try XCTUnwrap(
            try client.json("/reader/api/0/stream/items/ids?n=1&ot=1795312800")["itemRefs"] as? [[String: Any]])
        XCTAssertEqual(latest.count, 1)
        XCTAssertGreaterThan(try XCTUnwrap(Int64(latest.first?["id"] as? String ?? "")), newest, "ids only grow")
    }

    /// Apps manage subscriptions through providers.json: one section of a provider goes and
    /// its entry stays, renames are kept under `titles`, OPML goes out and comes in, and a
    /// bad request names what is wrong and changes nothing.
    func testSubscriptionsAreManagedFromAppsThroughProvidersJSON() throws {
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "sections": ["hot", "latest", "node/swift"]},
              {"id": "blog", "type": "feed", "options": {"url": "https://blog.example/feed?token=FEEDS3CRET"}}
            ], "serve": {"password_env": "AGGR_PASSWORD"}}
            """)
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        var client = ReaderClient(http: session(base))
        client.auth = try signIn(client, password: "PASSW0RD-S3CRET")
        func subscriptions() throws -> [String: [String: Any]] {
            let list = try XCTUnwrap(try client.json("/reader/api/0/subscription/list")["subscriptions"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as? String ?? "", $0) })
        }
        func config() throws -> String { try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8) }

        let listed = try subscriptions()
        XCTAssertEqual(Set(listed.keys), ["feed/v2ex/hot", "feed/v2ex/latest", "feed/v2ex/node/swift", "feed/blog/feed"])
        XCTAssertEqual(listed["feed/v2ex/hot"]?["htmlUrl"] as? String, "https://www.v2ex.com", "V2EX's site")
        XCTAssertEqual(listed["feed/v2ex/hot"]?["url"] as? String, base + "/feeds/provider/v2ex.atom", "aggr's own feed of it")
        XCTAssertEqual(listed["feed/blog/feed"]?["htmlUrl"] as? String, "https://blog.example/")
        XCTAssertFalse(String(describing: listed).contains("FEEDS3CRET"))

        // Bad requests name the problem and leave the file alone.
        let before = try config()
        let unknown = try client.post("/reader/api/0/subscription/edit", [("ac", "unsubscribe"), ("s", "feed/nope/x")])
        XCTAssertEqual(unknown.status, 400)
        XCTAssertTrue(unknown.body.contains("feed/nope/x"), unknown.body)
        XCTAssertEqual(try client.post("/reader/api/0/subscription/edit", [("ac", "bogus"), ("s", "feed/v2ex/hot")]).status, 400)
        XCTAssertEqual(try client.post("/reader/api/0/subscription/edit", [("ac", "edit")]).status, 400)
        XCTAssertEqual(try client.post("/reader/api/0/subscription/import", [("opml", "<opml><body><outline")]).status, 400)
        XCTAssertEqual(try config(), before)

        // One section of three goes; the entry and its other sections stay.
        XCTAssertEqual(
            try client.post("/reader/api/0/subscription/edit", [("ac", "unsubscribe"), ("s", "feed/v2ex/latest")]).body, "OK")
        XCTAssertEqual(Set(try subscriptions().keys), ["feed/v2ex/hot", "feed/v2ex/node/swift", "feed/blog/feed"])
        // A rename is kept in providers.json and shows at once; an empty one restores upstream's.
        XCTAssertEqual(
            try client.post("/reader/api/0/subscription/edit", [("ac", "edit"), ("s", "feed/v2ex/node/swift"), ("t", "Swift 节点")]).body,
            "OK")
        XCTAssertEqual(try subscriptions()["feed/v2ex/node/swift"]?["title"] as? String, "Swift 节点")
        XCTAssertTrue(try config().contains(#""titles""#))
        XCTAssertEqual(try aggr("providers", "list").status, 0, "the edited file loads")
        XCTAssertTrue(try config().contains("FEEDS3CRET"), "other entries keep their real URLs")

        // OPML out: every provider; in: feeds not followed yet.
        let export = try client.get("/reader/api/0/subscription/export")
        XCTAssertEqual(export.status, 200)
        XCTAssertEqual(export.body.components(separatedBy: "type=\"rss\"").count - 1, 2, export.body)
        let opml = """
            <?xml version="1.0"?><opml version="2.0"><body><outline text="Tech">
            <outline type="rss" text="Other" xmlUrl="http://127.0.0.1:9/other.xml"/>
            <outline type="rss" text="Blog" xmlUrl="https://blog.example/feed?token=FEEDS3CRET"/>
            </outline></body></opml>
            """
        let imported = try client.http.send(
            "POST", "/reader/api/0/subscription/import",
            headers: [("Authorization", "GoogleLogin auth=\(client.auth)"), ("Content-Type", "text/x-opml")],
            body: opml)
        XCTAssertEqual(imported.status, 200, imported.body)
        XCTAssertTrue(imported.body.contains("1 feed added"), imported.body)
        let after = try subscriptions().keys
        XCTAssertTrue(after.contains("feed/other/feed"), "\(after)")

        // Subscribing by feed address, named at once (as NetNewsWire and Reeder do).
        let site = try TestHTTPServer()
        defer { site.stop() }
        site.route("/news.xml") { _ in
            .text(
                #"<rss version="2.0"><channel><title>News</title><item><title>n</title></item></channel></rss>"#,
                contentType: "application/rss+xml")
        }
        XCTAssertEqual(
            try client.post(
                "/reader/api/0/subscription/edit", [("ac", "subscribe"), ("s", "feed/\(site.baseURL)/news.xml"), ("t", "Loopback news")]
            ).body, "OK")
        XCTAssertEqual(try subscriptions()["feed/news/feed"]?["title"] as? String, "Loopback news")
    }

    /// Labels apps put on items (`user/-/label/…` in edit-tag) are kept per item, listed as
    /// tags with unread counts, are streams, are in the filter language (`labels has X`),
    /// and are renamed and deleted; views are renamed and deleted in providers.json.
    func testLabelsOnItemsAreKeptListedFilteredRenamedAndDeleted() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        var client = ReaderClient(http: session(base))
        client.auth = try signIn(client, password: "PASSW0RD-S3CRET")
        func stream(_ label: String) throws -> Set<String> {
            let name = label.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? label
            let refs = try client.json("/reader/api/0/stream/items/ids?n=100&s=user/-/label/\(name)")["itemRefs"] as? [[String: Any]]
            return Set(try XCTUnwrap(refs).compactMap { $0["id"] as? String })
        }
        func tags() throws -> [String: String] {
            let list = try XCTUnwrap(try client.json("/reader/api/0/tag/list")["tags"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as? String ?? "", $0["type"] as? String ?? "") })
        }
        func unread(_ id: String) throws -> Int? {
            let counts = try XCTUnwrap(try client.json("/reader/api/0/unread-count")["unreadcounts"] as? [[String: Any]])
            return counts.first { $0["id"] as? String == id }?["count"] as? Int
        }

        XCTAssertEqual(
            try client.post("/reader/api/0/edit-tag", [("i", "1"), ("i", "4"), ("a", "user/1234/label/数据 later")]).body, "OK")
        XCTAssertEqual(try stream("数据 later"), ["1", "4"])
        XCTAssertEqual(try tags()["user/-/label/数据 later"], "tag", "labels are tags, folders are folders")
        XCTAssertEqual(try tags()["user/-/label/v2ex"], "folder")
        XCTAssertEqual(try unread("user/-/label/数据 later"), 2)
        let contents = try client.json("/reader/api/0/stream/items/contents?i=4")
        let categories = (contents["items"] as? [[String: Any]])?.first?["categories"] as? [String] ?? []
        XCTAssertTrue(categories.contains("user/-/label/数据 later"), "\(categories)")
        // The filter language sees them, in the CLI as anywhere.
        let listed = try aggr("timeline", "--where", "labels has '数据 later'", "--format", "ndjson")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 2, listed.stdout)
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "1"), ("r", "user/-/label/数据 later")]).body, "OK")
        XCTAssertEqual(try stream("数据 later"), ["4"])
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "1"), ("a", "user/-/label/a/b")]).status, 400)

        // Renamed on every item; deleted from every item; gone with a removed item.
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "5"), ("a", "user/-/label/数据 later")]).body, "OK")
        XCTAssertEqual(
            try client.post("/reader/api/0/rename-tag", [("s", "user/-/label/数据 later"), ("dest", "user/-/label/keep")]).body, "OK")
        XCTAssertEqual(try stream("keep"), ["4", "5"])
        XCTAssertEqual(try stream("数据 later"), [])
        XCTAssertEqual(try aggr("prune", "5").status, 0)
        XCTAssertEqual(try stream("keep"), ["4"])
        XCTAssertEqual(try client.post("/reader/api/0/disable-tag", [("s", "user/-/label/keep")]).body, "OK")
        XCTAssertEqual(try stream("keep"), [])
        XCTAssertNil(try tags()["user/-/label/keep"])

        // Views are folders kept in providers.json; a provider's folder is its id and stays.
        XCTAssertEqual(
            try client.post("/reader/api/0/rename-tag", [("s", "user/-/label/releases"), ("dest", "user/-/label/shipped")]).body, "OK")
        let config = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        XCTAssertTrue(config.contains(#""shipped""#) && !config.contains(#""releases""#), config)
        XCTAssertEqual(try stream("shipped").count, 1)
        let provider = try client.post("/reader/api/0/rename-tag", [("s", "user/-/label/v2ex"), ("dest", "user/-/label/vee")])
        XCTAssertEqual(provider.status, 400)
        XCTAssertTrue(provider.body.contains("provider"), provider.body)
        XCTAssertEqual(try client.post("/reader/api/0/disable-tag", [("t", "shipped")]).body, "OK")
        XCTAssertNil(try tags()["user/-/label/shipped"])
        XCTAssertFalse(try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8).contains("shipped"))
        XCTAssertEqual(try client.post("/reader/api/0/disable-tag", [("s", "user/-/label/v2ex")]).status, 400)
    }

    /// Signs in through ClientLogin; the `Auth` token.
    func signIn(_ client: ReaderClient, password: String) throws -> String {
        let login = try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", password)])
        XCTAssertEqual(login.status, 200, login.body)
        let line = try XCTUnwrap(login.body.split(separator: "\n").first { $0.hasPrefix("Auth=") })
        return String(line.dropFirst("Auth=".count))
    }

    /// A real third-party client, the PyPI `google-reader` package, syncing as an app does.
    ///
    /// `scripts/bootstrap --test` installs it into .build/test-tools. It raised a TypeError
    /// on `canonical` links that carried `type`.
    func testThePyPIGoogleReaderClientSyncs() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/test-tools/google-reader/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("the google-reader client is not installed: scripts/bootstrap --test installs it (needs Python >= 3.12)")
        }
        let script = here.appendingPathComponent("Scripts/google_reader_sync.py").path
        // A site to quick-add: a page advertising its feed, on loopback.
        let site = try TestHTTPServer()
        defer { site.stop() }
        let rss =
            #"<rss version="2.0"><channel><title>Loopback Blog</title><link>\#(site.baseURL)/blog</link>"#
            + #"<item><title>Late news</title><link>https://e.example/1</link></item></channel></rss>"#
        site.route("/feed.xml") { _ in .text(rss, contentType: "application/rss+xml") }
        site.route("/blog") { _ in
            .text(#"<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>hi</body></html>"#)
        }
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        let run = try ToolOutput.run("/usr/bin/timeout", ["60", python, script, base, "PASSW0RD-S3CRET", site.baseURL + "/blog"])
        XCTAssertEqual(run.status, 0, "the client failed: \(run.text)")
        let seen = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.text.utf8)) as? [String: Any], run.text)
        XCTAssertEqual(seen["wrong_password"] as? String, "refused")
        XCTAssertEqual(seen["user"] as? String, "aggr")
        XCTAssertEqual(seen["subscriptions"] as? [String], ["feed/blog/feed", "feed/shots/feed", "feed/shots/popular", "feed/v2ex/hot"])
        XCTAssertEqual(seen["ids"] as? Int, 6)
        XCTAssertEqual(seen["unread"] as? Int, 6)
        XCTAssertEqual((seen["titles"] as? [String])?.count, 6)
        XCTAssertTrue((seen["titles"] as? [String])?.contains("数据库选型讨论") == true)
        XCTAssertTrue((seen["links"] as? [String])?.contains("https://www.v2ex.com/t/1001") == true)
        XCTAssertEqual(seen["origins"] as? [String], ["feed/blog/feed", "feed/shots/popular", "feed/v2ex/hot"])
        let changed = try XCTUnwrap(seen["changed"] as? [String])
        XCTAssertEqual(seen["starred"] as? [String], [String(Int64(changed[0].split(separator: "/").last!, radix: 16)!)])
        // What the client changed is what the CLI sees: the first read and starred, the second neither.
        XCTAssertEqual(try unreadCount(), 5)
        XCTAssertEqual(try saved().count, 1)

        // Quick add follows the page's feed as `aggr add` does; rename and unsubscribe edit providers.json.
        let managed = try XCTUnwrap(seen["managed"] as? [String: Any], run.text)
        let quickAdd = try XCTUnwrap(managed["quickadd"] as? [Any])
        XCTAssertEqual(quickAdd.first as? Int, 1, run.text)
        let streamID = try XCTUnwrap(quickAdd[1] as? String)
        XCTAssertTrue(streamID.hasPrefix("feed/loopback-blog/"), streamID)
        XCTAssertEqual(managed["listed"] as? Bool, true)
        XCTAssertEqual(managed["url"] as? String, site.baseURL + "/feed.xml", "a feed's url is the feed")
        XCTAssertEqual(managed["html_url"] as? String, site.baseURL + "/", "and its site")
        XCTAssertEqual(managed["renamed"] as? [String], ["My loopback"])
        XCTAssertEqual(managed["moved"] as? String, "refused", "a subscription's folder is its provider")
        XCTAssertEqual(
            managed["after_unsubscribe"] as? [String], ["feed/blog/feed", "feed/shots/feed", "feed/shots/popular", "feed/v2ex/hot"])
        XCTAssertEqual(managed["failed"] as? Int, 0, "a page with no feed adds nothing")
        let config = try String(contentsOfFile: directory.file("providers.json"), encoding: .utf8)
        XCTAssertFalse(config.contains("loopback"), config)
        XCTAssertTrue(config.contains("FEEDS3CRET"), "the other entries are as they were")
    }

    /// Items of a provider no longer in providers.json (imported, then removed) are in no
    /// stream: `unread-count` and the lists agree (they said 220 and listed 337), and marking
    /// the reading list read leaves those items as they were.
    func testCountsAndListsAgreeWhenAProviderWasRemoved() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let orphan =
            #"{"provider":"gone","section":"feed","id":"g1","kind":"post","title":"Left behind","url":"https://gone.example/1","#
            + #""author":null,"published":"2026-11-20T11:00:00Z","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}"#
        XCTAssertEqual(try aggr("import", "-", input: orphan).status, 0)
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        var client = ReaderClient(http: session(base))
        let login = try client.http.send("POST", "/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "PASSW0RD-S3CRET")])
        client.auth = try XCTUnwrap(login.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5).description

        let counts = try XCTUnwrap(try client.json("/reader/api/0/unread-count?output=json")["unreadcounts"] as? [[String: Any]])
        let readingList = try XCTUnwrap(counts.first { $0["id"] as? String == "user/-/state/com.google/reading-list" }?["count"] as? Int)
        let ids = try XCTUnwrap(
            try client.json("/reader/api/0/stream/items/ids?n=1000&xt=user/-/state/com.google/read")["itemRefs"] as? [[String: Any]])
        XCTAssertEqual(readingList, 6)
        XCTAssertEqual(ids.count, readingList, "the count and the list agree")
        let contents = try client.json("/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=100")
        XCTAssertFalse(
            (contents["items"] as? [[String: Any]] ?? []).contains { $0["title"] as? String == "Left behind" },
            "no item without a subscription")

        XCTAssertEqual(try client.post("/reader/api/0/mark-all-as-read", [("s", "user/-/state/com.google/reading-list")]).body, "OK")
        XCTAssertEqual(try unreadCount(), 1, "only the removed provider's item is still unread")
    }

    /// newsboat itself, through its `feedhq` source (ClientLogin, the subscription list, then
    /// each subscription as Google Reader's Atom from `/reader/atom/<stream>`), lists aggr's
    /// items with their read state, and sees a read mark made in aggr on its next reload.
    func testNewsboatReadsTheSubscriptionsAsAtomStreamsWithTheirState() throws {
        guard let newsboat = ["/usr/bin/newsboat", "/usr/local/bin/newsboat"].first(where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("newsboat is not installed: scripts/bootstrap --test installs it") }
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        let config = directory.write(
            "newsboat.conf",
            "urls-source \"feedhq\"\nfeedhq-url \"\(base)/\"\nfeedhq-login \"me\"\nfeedhq-password \"PASSW0RD-S3CRET\"\n")
        let urls = directory.write("urls", "")
        let cache = directory.file("newsboat-cache.db")
        func reload() throws -> String {
            // `env HOME=…`: newsboat keeps its history beside the user's files.
            let run = try ToolOutput.run(
                "/usr/bin/env",
                [
                    "HOME=\(directory.path)", "/usr/bin/timeout", "60", newsboat, "-C", config, "-u", urls, "-c", cache, "-x", "reload",
                    "print-unread",
                ])
            XCTAssertEqual(run.status, 0, run.text)
            return run.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(
            try session(base).send("GET", "/reader/atom/user%2F-%2Fstate%2Fcom.google%2Freading-list").status, 401, "no auth, no stream")
        XCTAssertEqual(try reload(), "6 unread articles")
        XCTAssertEqual(try aggr("read", "4").status, 0)
        XCTAssertEqual(try reload(), "5 unread articles", "newsboat sees the mark made in aggr")

        // What newsboat stored: every item under its subscription, with its link and title.
        let rows = try ToolOutput.run(
            "/usr/bin/sqlite3", [cache, "SELECT url || ' ' || unread FROM rss_item WHERE title = 'Ocean app'"]
        ).text.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(rows, "https://dribbble.com/shots/1 0")
        let titles = try ToolOutput.run("/usr/bin/sqlite3", [cache, "SELECT title FROM rss_item"]).text
        XCTAssertTrue(titles.contains("数据库选型讨论"), titles)
        XCTAssertFalse(titles.contains("FEEDS3CRET"))

        // /opml lists subscriptions, not articles: newsboat imports one feed per provider.
        let basic = [("Authorization", "Basic " + Data("me:PASSW0RD-S3CRET".utf8).base64EncodedString())]
        let opml = try session(base).send("GET", "/opml", headers: basic)
        XCTAssertEqual(opml.status, 200)
        let file = directory.write("subscriptions.opml", opml.body)
        let imported = directory.write("imported-urls", "")
        let run = try ToolOutput.run(
            "/usr/bin/env", ["HOME=\(directory.path)", "/usr/bin/timeout", "60", newsboat, "-u", imported, "-C", config, "-i", file])
        XCTAssertEqual(run.status, 0, run.text)
        let feeds = try String(contentsOfFile: imported, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ")[0] }
        XCTAssertEqual(
            Set(feeds.map(String.init)),
            [
                "\(base)/feeds/provider/v2ex.atom", "https://dribbble.example/shots.rss", "https://blog.example/feed?token=REDACTED",
            ], "one feed per provider, no article page: \(feeds)")
    }

    /// Requests as newsboat and reader apps really send them (issue 29's first findings): a
    /// base URL ending in `/` (`//accounts/ClientLogin`), FreshRSS's `/api/greader.php` prefix,
    /// newsboat's unread mark with `tracking-kept-unread`, `like` and `broadcast` beside a
    /// star, `canonical` links without `type`, and weak ETags sent back to the feeds.
    func testRequestsAsNewsboatAndReaderAppsSendThem() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        var client = ReaderClient(http: session(base))
        let doubled = try client.http.send("POST", "//accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "PASSW0RD-S3CRET")])
        XCTAssertEqual(doubled.status, 200, doubled.body)
        let prefixed = try client.http.send(
            "POST", "/api/greader.php/accounts/ClientLogin", form: [("Email", "me"), ("Passwd", "PASSW0RD-S3CRET")])
        XCTAssertEqual(prefixed.status, 200, prefixed.body)
        client.auth = try XCTUnwrap(prefixed.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5).description
        XCTAssertEqual(try client.json("/api/greader.php/reader/api/0/user-info?output=json")["userName"] as? String, "aggr")
        XCTAssertEqual(try client.json("//reader/api/0//user-info")["userName"] as? String, "aggr")

        let state = "user/-/state/com.google/"
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "4"), ("a", state + "read")]).body, "OK")
        XCTAssertEqual(try unreadCount(), 5)
        let newsboatUnread = try client.post(
            "/reader/api/0/edit-tag",
            [("i", "4"), ("a", state + "kept-unread"), ("a", state + "tracking-kept-unread"), ("r", state + "read")])
        XCTAssertEqual(newsboatUnread.body, "OK")
        XCTAssertEqual(try unreadCount(), 6, "newsboat's unread mark took")
        let liked = try client.post(
            "/reader/api/0/edit-tag", [("i", "5"), ("a", state + "starred"), ("a", state + "like"), ("a", state + "broadcast")])
        XCTAssertEqual(liked.body, "OK")
        XCTAssertEqual(try saved(), ["Forest icons"], "the star took; like and broadcast are accepted and not kept")
        XCTAssertEqual(try client.post("/reader/api/0/edit-tag", [("i", "6"), ("a", state + "like")]).body, "OK")
        XCTAssertEqual(try saved(), ["Forest icons"], "like alone stars nothing")

        let contents = try client.post("/reader/api/0/stream/items/contents", [("i", "1")])
        let item = try XCTUnwrap(
            ((try JSONSerialization.jsonObject(with: Data(contents.body.utf8)) as? [String: Any])?["items"] as? [[String: Any]])?.first)
        XCTAssertEqual(item["canonical"] as? [[String: String]], [["href": "https://www.v2ex.com/t/1001"]])
        XCTAssertEqual(item["alternate"] as? [[String: String]], [["href": "https://www.v2ex.com/t/1001", "type": "text/html"]])

        let basic = [("Authorization", "Basic " + Data("reader:PASSW0RD-S3CRET".utf8).base64EncodedString())]
        let feed = try client.http.send("GET", "/feeds/all.atom", headers: basic)
        XCTAssertEqual(feed.status, 200)
        let etag = try XCTUnwrap(feed.header("ETag"))
        XCTAssertEqual(try client.http.send("GET", "/feeds/all.atom", headers: basic + [("If-None-Match", "W/" + etag)]).status, 304)
        XCTAssertEqual(try client.http.send("GET", "/feeds/all.atom", headers: basic + [("If-None-Match", "\"other\"")]).status, 200)
    }

    /// NetNewsWire's sync, request for request as its ReaderAPICaller makes it: the token
    /// kept with its newline and sent back as `T`, ids by `n=1000&output=json` with `ot` and
    /// `c` continuations, contents by unpadded hex long ids, edit-tag by padded ones.
    func testRequestsAsNetNewsWireSendsThem() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        let http = session(base)
        let login = try http.send("POST", "/accounts/ClientLogin", body: "Email=me&Passwd=PASSW0RD-S3CRET")
        let auth = try XCTUnwrap(login.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5)
        let header = [("Authorization", "GoogleLogin auth=\(auth)")]
        let token = try http.send("GET", "/reader/api/0/token", headers: header).body
        XCTAssertTrue(token.hasSuffix("\n"))
        func json(_ path: String) throws -> [String: Any] {
            let answer = try http.send("GET", path, headers: header)
            XCTAssertEqual(answer.status, 200, "\(path): \(answer.body)")
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], answer.body)
        }
        XCTAssertNotNil(try json("/reader/api/0/tag/list?output=json")["tags"])
        XCTAssertEqual((try json("/reader/api/0/subscription/list?output=json")["subscriptions"] as? [Any])?.count, 4)
        /// Every id of a query, following continuations as NetNewsWire does (`c` replaced).
        func ids(_ query: String) throws -> [String] {
            var all: [String] = []
            var continuation: String?
            repeat {
                let page = try json(
                    "/reader/api/0/stream/items/ids?\(query)" + (continuation.map { "&c=" + PercentEncoding.component($0) } ?? ""))
                all += (page["itemRefs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                continuation = page["continuation"] as? String
            } while continuation != nil && all.count < 100
            return all
        }
        let reading = "s=user/-/state/com.google/reading-list"
        let threeMonths = Int(Date().timeIntervalSince1970) - 90 * 86_400
        let everything = try ids("n=1000&output=json&ot=\(threeMonths)&\(reading)")
        XCTAssertEqual(everything.count, 6)
        XCTAssertEqual(try ids("n=2&output=json&ot=\(threeMonths)&\(reading)"), everything, "continuations page through the same")
        XCTAssertEqual(try ids("n=1000&output=json&\(reading)&xt=user/-/state/com.google/read").count, 6)
        XCTAssertEqual(try ids("n=1000&output=json&s=user/-/state/com.google/starred"), [])
        XCTAssertEqual(try ids("n=1000&output=json&ot=\(Int(Date().timeIntervalSince1970) + 60)&\(reading)"), [], "nothing stored since")

        let unpadded = everything.map { "i=tag:google.com,2005:reader/item/" + String(Int($0)!, radix: 16) }.joined(separator: "&")
        let contents = try http.send(
            "POST", "/reader/api/0/stream/items/contents", headers: header, body: "T=\(token)&output=json&\(unpadded)")
        XCTAssertEqual(contents.status, 200, contents.body)
        let items = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contents.body.utf8)) as? [String: Any])?["items"] as? [Any])
        XCTAssertEqual(items.count, 6)

        let padded = everything.prefix(2).map { "i=tag:google.com,2005:reader/item/" + String(format: "%.16llx", Int($0)!) }.joined(
            separator: "&")
        for (change, expected) in [("a=user/-/state/com.google/read", 4), ("r=user/-/state/com.google/read", 6)] {
            let edit = try http.send("POST", "/reader/api/0/edit-tag", headers: header, body: "T=\(token)&\(padded)&\(change)")
            XCTAssertEqual(edit.body, "OK", "the token came back with its newline")
            XCTAssertEqual(try unreadCount(), expected)
        }
        let star = try http.send(
            "POST", "/reader/api/0/edit-tag", headers: header, body: "T=\(token)&\(padded)&a=user/-/state/com.google/starred")
        XCTAssertEqual(star.body, "OK")
        XCTAssertEqual(try ids("n=1000&output=json&s=user/-/state/com.google/starred").count, 2)
        let forged = try http.send(
            "POST", "/reader/api/0/edit-tag", headers: header, body: "T=other&\(padded)&a=user/-/state/com.google/read")
        XCTAssertEqual(forged.status, 401)
    }

    func testTokensBelongToOneInstallationAndRotate() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let password = ["AGGR_PASSWORD": "PASSW0RD-S3CRET"]
        let base = try startServe(environment: password)
        var client = ReaderClient(http: session(base))
        client.auth = try signIn(client, password: "PASSW0RD-S3CRET")
        XCTAssertEqual(try client.get("/reader/api/0/user-info").status, 200)
        let action = try client.get("/reader/api/0/token").body.trimmingCharacters(in: .whitespacesAndNewlines)

        // A second installation with the same password issues other tokens, and refuses these.
        let otherDirectory = TemporaryDirectory()
        otherDirectory.write("providers.json", #"{"providers": [], "serve": {"password_env": "AGGR_PASSWORD"}}"#)
        var environment = runner.environment.merging(password) { $1 }
        environment.removeValue(forKey: "AGGR_NOW")
        environment["AGGR_DB"] = otherDirectory.file("other.db")
        let other = try BackgroundCommand(
            binary: runner.binary,
            arguments: ["serve", "--listen", "127.0.0.1:0", "--no-refresh", "--config", otherDirectory.file("providers.json")],
            directory: otherDirectory.path, environment: environment)
        defer {
            other.send(SIGTERM)
            _ = other.waitForExit(timeout: 10)
        }
        XCTAssertTrue(other.waitForOutput("listening on http://127.0.0.1:", timeout: 30), other.stderr)
        let otherBase = try XCTUnwrap(
            other.stderr.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression).map { String(other.stderr[$0]) })
        var stranger = ReaderClient(http: session(otherBase))
        stranger.auth = client.auth
        XCTAssertEqual(try stranger.get("/reader/api/0/user-info").status, 401, "a token of one installation is no good on another")
        XCTAssertNotEqual(try signIn(stranger, password: "PASSW0RD-S3CRET"), client.auth)

        // Rotation: the running server refuses the old token within seconds; signing in again works.
        let rotate = try aggr("serve", "--rotate-tokens")
        XCTAssertEqual(rotate.status, 0, rotate.stderr)
        XCTAssertTrue(rotate.stderr.contains("rotated"), rotate.stderr)
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 10) { (try? client.get("/reader/api/0/user-info").status) == 401 },
            "the old Auth stops working")
        let stale = try client.post("/reader/api/0/edit-tag", [("i", "1"), ("a", "user/-/state/com.google/read"), ("T", action)])
        XCTAssertEqual(stale.status, 401)
        client.auth = try signIn(client, password: "PASSW0RD-S3CRET")
        XCTAssertEqual(try client.get("/reader/api/0/user-info").status, 200)
        let fresh = try client.get("/reader/api/0/token").body.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotEqual(fresh, action)
        XCTAssertEqual(fresh.count, 57)
        let database = try storedBytes()
        XCTAssertNotNil(database.range(of: Data("installation_secret".utf8)), "the look is at what was stored")
        XCTAssertNil(database.range(of: Data("PASSW0RD".utf8)), "the password is not stored")
    }

    func testContentsAreBatchedAndTitlesGoOutAsHTMLText() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        var client = ReaderClient(http: session(base))
        client.auth = try signIn(client, password: "any: an open loopback server takes every password")
        let hostile = try client.json("/reader/api/0/stream/items/contents?i=6")
        let item = try XCTUnwrap((hostile["items"] as? [[String: Any]])?.first)
        let title = try XCTUnwrap(item["title"] as? String)
        XCTAssertFalse(title.contains("<script>"), title)
        XCTAssertTrue(title.hasPrefix("Release 2.0 &lt;script&gt;"), title)

        // 1,000 ids in one call are answered (the stored ones, in the order asked); more are a 400.
        let ids = (1...1_000).map { "i=\(1_001 - $0)" }.joined(separator: "&")
        let batch = try client.post("/reader/api/0/stream/items/contents?" + ids, [])
        XCTAssertEqual(batch.status, 200, batch.body)
        let items = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(batch.body.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["id"] as? String }.count, 6)
        XCTAssertEqual(items.first?["id"] as? String, "tag:google.com,2005:reader/item/0000000000000006", "in the order asked")
        let tooMany = try client.post("/reader/api/0/stream/items/contents?" + (1...1_001).map { "i=\($0)" }.joined(separator: "&"), [])
        XCTAssertEqual(tooMany.status, 400)
        XCTAssertTrue(tooMany.body.contains("at most 1000"), tooMany.body)
    }
}
