import Aggregator
import AggregatorTestSupport
import XCTest

/// The web UI in a real browser: headless Chromium loads the pages, runs their script, and
/// the tests read the DOM it ends with.
final class ServeBrowserTests: ServeTestCase {
    /// Chromium's binary, or a skip naming the package.
    func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("chromium is not installed (scripts/bootstrap installs the Debian package)")
    }

    /// The DOM of `url` after its scripts ran (`flags`: more of Chromium's switches).
    func dumpDOM(_ url: String, flags: [String] = []) throws -> String {
        let result = try ToolOutput.run(
            "/usr/bin/timeout",
            [
                "60", try chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(directory.file("chromium-profile"))", "--virtual-time-budget=3000",
            ] + flags + ["--dump-dom", url])
        XCTAssertEqual(result.status, 0, "chromium exited with \(result.status)")
        return result.text
    }

    /// What `expression` evaluates to (a JSON string it builds) in `url` at `width`×`height`,
    /// read through DevTools by `Scripts/chromium_evaluate.py`.
    func evaluate(
        _ url: String, width: Int, height: Int = 844, _ expression: String, steps: [[String: String]] = [], file: StaticString = #filePath
    ) throws -> [String: Any] {
        let script = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Scripts/chromium_evaluate.py").path
        let stepsJSON = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let result = try ToolOutput.run(
            "/usr/bin/timeout",
            ["60", "/usr/bin/python3", script, try chromium(), url, String(width), String(height), expression, stepsJSON])
        XCTAssertEqual(result.status, 0, "chromium_evaluate: \(result.text)")
        let object = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
        return try XCTUnwrap(object, result.text)
    }

    /// At a phone's 390 px and a desktop's 1280 px, measured by element boxes: nothing runs
    /// off the screen (an item's image included), and a filter error's caret stands under the
    /// column it names.
    func testPagesFitPhoneAndDesktopWidthsAndTheCaretPointsAtItsColumn() throws {
        let images = try TestHTTPServer()
        defer { images.stop() }
        let wide = TestImage.png(width: 1600, height: 400) { x, _ in [UInt8(x % 256), 80, 160, 255] }
        images.route("/wide.png") { _ in TestHTTPServer.Response(headers: [("Content-Type", "image/png")], body: wide) }
        writeConfig()
        let item = """
            {"provider":"blog","section":"feed","id":"wide","kind":"post","title":"A very wide enclosure","url":"https://blog.example/wide","author":"someone@example.com (张三)","published":"2026-11-20T06:00:00Z","updated":null,"summary":"wide","tags":[],"metrics":{"replies":1},"image":"\(images.baseURL)/wide.png","extra":{}}
            """
        XCTAssertEqual(try aggr("import", "-", input: item).status, 0)
        try importItems()
        let base = try startServe()
        let overflow = "document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth"
        let imageBox = """
            (async () => { const img = document.querySelector('img.shot');
              if (!img.complete) await new Promise(done => { img.onload = img.onerror = done; });
              const box = img.getBoundingClientRect();
              return JSON.stringify({natural: img.naturalWidth, left: box.left, right: box.right, scroll: \(overflow)}); })()
            """
        let caret = """
            (() => { const pre = document.querySelector('pre.filter-error'); const text = pre.firstChild;
              const lines = text.data.split('\\n'); const at = lines.findIndex(line => line.trim() === '^');
              let start = 0; for (let i = 0; i < at - 1; i++) start += lines[i].length + 1;
              const source = lines[at - 1], column = lines[at].indexOf('^'), caretStart = start + source.length + 1;
              const box = (offset) => { const range = document.createRange(); range.setStart(text, offset);
                range.setEnd(text, offset + 1); return range.getBoundingClientRect(); };
              const target = column < source.length ? box(start + column).left : box(start + source.length - 1).right;
              const mark = box(caretStart + column); const edge = pre.getBoundingClientRect();
              return JSON.stringify({caret: mark.left, target: target, sourceTop: box(start).top, caretTop: mark.top,
                preRight: edge.right, scroll: \(overflow)}); })()
            """
        let filter = "title ~ \"a long phrase to push the caret far\" and replies > 1 and likes >"
        let filterURL = base + "/?where=" + filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        for width in [390, 1280] {
            let page = try evaluate(base + "/item/1", width: width, imageBox)
            let viewport = try XCTUnwrap(page["viewport"] as? Double)
            XCTAssertEqual(viewport, Double(width), "the page lays out at the device width")
            XCTAssertEqual(page["natural"] as? Double, 1600, "the image loaded: \(page)")
            XCTAssertLessThanOrEqual(try XCTUnwrap(page["right"] as? Double), viewport, "the image fits at \(width) px: \(page)")
            XCTAssertLessThanOrEqual(try XCTUnwrap(page["scroll"] as? Double), viewport, "nothing scrolls sideways at \(width) px")

            let error = try evaluate(filterURL, width: width, caret)
            let caretLeft = try XCTUnwrap(error["caret"] as? Double)
            let target = try XCTUnwrap(error["target"] as? Double)
            XCTAssertEqual(caretLeft, target, accuracy: 1.5, "the caret stands under its column at \(width) px: \(error)")
            XCTAssertGreaterThan(try XCTUnwrap(error["caretTop"] as? Double), try XCTUnwrap(error["sourceTop"] as? Double))
            XCTAssertLessThanOrEqual(try XCTUnwrap(error["preRight"] as? Double), Double(width), "the error box fits: \(error)")
            XCTAssertLessThanOrEqual(try XCTUnwrap(error["scroll"] as? Double), Double(width), "the page does not scroll sideways")

            let rows = """
                JSON.stringify({title: document.querySelector('ol.items > li .body').getBoundingClientRect().width,
                  header: getComputedStyle(document.querySelector('header.top')).position, scroll: \(overflow)})
                """
            let home = try evaluate(base + "/", width: width, rows)
            XCTAssertLessThanOrEqual(try XCTUnwrap(home["scroll"] as? Double), Double(width), "the timeline fits at \(width) px")
            // On a phone a row's text gets the width (its buttons go under it), and the search
            // and filter boxes scroll away instead of holding a fifth of the screen.
            let textWidth = try XCTUnwrap(home["title"] as? Double)
            XCTAssertGreaterThan(textWidth, min(Double(width), 1_024) * 0.75, "row text width at \(width) px: \(home)")
            XCTAssertEqual(home["header"] as? String, width < 600 ? "static" : "sticky")
        }
    }

    func testTheBrowserShowsTabsItemsAndTheGridAndRunsNoUpstreamScript() throws {
        writeConfig()
        try importItems()
        let base = try startServe()

        let home = try dumpDOM(base + "/")
        XCTAssertTrue(home.contains("<html lang=\"en\" class=\"js\">"), "the page's own script ran: \(home.prefix(300))")
        for tab in ["releases", "chinese", "All", "v2ex", "shots", "blog"] {
            XCTAssertTrue(home.contains(">\(tab)<"), "tab \(tab)")
        }
        XCTAssertTrue(home.contains("数据库选型讨论") && home.contains("Ocean app"))
        XCTAssertFalse(home.contains("id=\"xss-"), "an upstream script ran on the timeline")

        let grid = try dumpDOM(base + "/?tab=p:shots")
        XCTAssertTrue(grid.contains("<ol class=\"grid\">"))
        XCTAssertEqual(grid.components(separatedBy: "<li class=\"card").count - 1, 2, "both shots as cards")

        let hostile = try dumpDOM(base + "/item/6")
        XCTAssertTrue(hostile.contains("class=\"js\""), "scripts were on")
        XCTAssertTrue(hostile.contains("Release 2.0 &lt;script&gt;"), "the title shows as text")
        XCTAssertFalse(hostile.contains("id=\"xss-"), "an upstream script, event handler or javascript: link ran: \(hostile)")
        XCTAssertFalse(hostile.contains("<iframe") || hostile.contains("<svg") || hostile.contains("<style>"))
        XCTAssertFalse(hostile.contains("javascript:"))
        XCTAssertFalse(hostile.contains("onerror"))
    }

    /// A browser set to Chinese gets the pages in Chinese (its own Accept-Language), with the
    /// page's script running and the language switch offering English in its own name.
    func testABrowserSetToChineseGetsChinesePages() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        let home = try dumpDOM(base + "/", flags: ["--accept-lang=zh-CN,zh"])
        XCTAssertTrue(home.contains("<html lang=\"zh-Hans\" class=\"js\">"), "\(home.prefix(300))")
        for text in [">标为已读</button>", "placeholder=\"搜索\"", ">只看未读</a>", ">English</a>", "data-undone=\"标为已读\""] {
            XCTAssertTrue(home.contains(text), "\(text) in the Chinese page")
        }
        let item = try dumpDOM(base + "/item/1", flags: ["--accept-lang=zh-CN,zh"])
        XCTAssertTrue(item.contains("← 时间线") && item.contains(">全文</button>"), item)
        XCTAssertTrue(
            try dumpDOM(base + "/", flags: ["--accept-lang=en-US,en"]).contains(">Mark read</button>"), "an English browser gets English")
    }

    /// A reply typed into the item page in Chromium reaches the site byte for byte and shows
    /// in the thread; a thank asks first; the page says what happened.
    func testAReplyTypedOnTheItemPageArrivesByteForByteAndAThankAsksFirst() throws {
        guard let site = try V2EXSiteFake() else { throw XCTSkip("../shared/fixtures is not beside the repository") }
        defer { site.stop() }
        directory.write("providers.json", site.providersJSON())
        XCTAssertEqual(try aggr("import", "-", input: site.topicLine).status, 0)
        let base = try startServe(environment: ["V2EX_COOKIE": site.cookie])
        let text = "浏览器里输入的回复 & <b>原样</b>\n第二行 100%"
        let page = try evaluate(
            base + "/item/1", width: 1280,
            """
            JSON.stringify({at: location.href, body: document.body.innerText.slice(0, 300),
              notice: document.querySelector('.upstream .notice')?.textContent ?? '',
              error: document.querySelector('.upstream .error')?.textContent ?? '',
              replies: [...document.querySelectorAll('.thread .reply .content')].map(e => e.innerText)})
            """,
            steps: [["type": "#reply-text", "text": text], ["click": "form.reply-box button"]])
        XCTAssertEqual(page["error"] as? String, "", "\(page)")
        XCTAssertEqual(page["notice"] as? String, "v2ex: replied to topic 1147555", "\(page)")
        XCTAssertEqual(site.postedReplies, [text], "typed in the browser, arrived byte for byte")
        XCTAssertTrue((page["replies"] as? [String])?.contains(text) == true, "\(page["replies"] ?? "")")
        // At a phone's width the buttons and the reply box stay on the screen.
        let phone = try evaluate(
            base + "/item/1", width: 390,
            """
            JSON.stringify({scroll: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth,
              box: document.querySelector('#reply-text').getBoundingClientRect().right,
              buttons: Math.max(...[...document.querySelectorAll('.upstream button')].map(b => b.getBoundingClientRect().right))})
            """)
        let viewport = try XCTUnwrap(phone["viewport"] as? Double)
        XCTAssertLessThanOrEqual(try XCTUnwrap(phone["scroll"] as? Double), viewport, "\(phone)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(phone["box"] as? Double), viewport, "\(phone)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(phone["buttons"] as? Double), viewport, "\(phone)")

        // A thank goes through a confirmation; favourite toggles; both through the form token.
        let browser = session(base)
        let home = try browser.send("GET", "/item/1")
        XCTAssertTrue(home.body.contains(">Thank</button>") && home.body.contains(">Favourite</button>"), home.body)
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: home.body))
        let asked = try browser.send("POST", "/item/1/act", form: [("csrf", token), ("action", "thank")])
        XCTAssertEqual(asked.header("Location"), "/item/1?confirm=thank#act")
        XCTAssertTrue(site.received.filter { $0.path.hasPrefix("/thank/") }.isEmpty, "nothing sent before the yes")
        XCTAssertTrue(try browser.send("GET", "/item/1?confirm=thank").body.contains("copper coins"))
        let thanked = try browser.send("POST", "/item/1/act", form: [("csrf", token), ("action", "thank"), ("confirm", "1")])
        XCTAssertTrue(thanked.header("Location")?.contains("thanked") == true, "\(thanked.headers)")
        XCTAssertEqual(site.received.filter { $0.path.hasPrefix("/thank/") }.count, 1)
        _ = try browser.send("POST", "/item/1/act", form: [("csrf", token), ("action", "favourite")])
        let after = try browser.send("GET", "/item/1").body
        XCTAssertTrue(site.isFavourited)
        XCTAssertTrue(after.contains(">Unfavourite</button>") && after.contains(">Thanked<"), after)
        XCTAssertEqual(try browser.send("POST", "/item/1/act", form: [("csrf", "0"), ("action", "favourite")]).status, 403)
        XCTAssertTrue(site.isFavourited, "a forged request acted on nothing")
        XCTAssertFalse(after.contains("SECRETSESSIONVALUE"))
    }

    /// On a database with users, a person signs in through the form in a real browser by
    /// name and password; a wrong password keeps them on the form with the error.
    func testAUserSignsInByNameAndPasswordInTheBrowser() throws {
        let cluster = try PostgresCluster.shared.get()
        runner.environment.merge(cluster.environment) { $1 }
        runner.environment["AGGR_DB"] = try cluster.createDatabase()
        directory.write("providers.json", #"{"providers": []}"#)
        let lines = (1...2).map {
            #"{"provider":"forum","section":"hot","id":"\#($0)","kind":"topic","title":"Topic \#($0)","url":"https://forum.example/\#($0)","published":"2026-11-20T00:00:00Z"}"#
        }
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n") + "\n").status, 0)
        XCTAssertEqual(try aggr("users", "add", "alice", input: "alice-long-secret\n").status, 0)
        let base = try startServe()
        let expression = """
            JSON.stringify({path: location.pathname, user: document.querySelector('.user')?.textContent ?? '',
              error: document.querySelector('.login .error')?.textContent ?? '', text: document.body.innerText})
            """
        func signIn(_ password: String) throws -> [String: Any] {
            try evaluate(
                base + "/", width: 1280, expression,
                steps: [
                    ["type": "input[name=user]", "text": "alice"], ["type": "input[name=password]", "text": password],
                    ["click": "form.login button"],
                ])
        }
        let refused = try signIn("bob-long-secret")
        XCTAssertEqual(refused["path"] as? String, "/login", "\(refused)")
        XCTAssertEqual(refused["error"] as? String, "Wrong user name or password.", "\(refused)")
        XCTAssertFalse((refused["text"] as? String ?? "").contains("Topic 1"), "\(refused)")
        let page = try signIn("alice-long-secret")
        XCTAssertEqual(page["path"] as? String, "/", "\(page)")
        XCTAssertEqual(page["user"] as? String, "alice", "the page names who signed in: \(page)")
        XCTAssertTrue((page["text"] as? String ?? "").contains("Topic 2"), "\(page)")
    }
}
