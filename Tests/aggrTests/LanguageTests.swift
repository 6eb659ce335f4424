import Aggregator
import AggregatorTestSupport
import XCTest

/// aggr in English and 简体中文, as a user gets each: the same scenario (a refresh with one
/// failing provider, the timeline, a filter error, the reader's first screen and help, the web
/// page and sign-in) under `LANG=C`, `LANG=zh_CN.UTF-8` and `Accept-Language: zh-CN`; what
/// programs read (JSON, exit codes, feeds, the reader API) is the same bytes in both.
final class LanguageTests: ServeTestCase {
    var upstream: TestHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        upstream = try TestHTTPServer()
        let hot = try fixture("v2ex-hot.json")
        upstream.route("/api/topics/hot.json") { _ in .text(hot) }
    }

    override func tearDown() {
        upstream?.stop()
        super.tearDown()
    }

    /// A working V2EX provider on loopback and one whose server is gone.
    func writeRefreshConfig(language: String? = nil) throws {
        let closed = try TestHTTPServer()
        let closedURL = closed.baseURL
        closed.stop()
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "v2ex", "type": "v2ex", "sections": ["hot"], "api_url": "\(upstream.baseURL)", "web_url": "https://www.v2ex.com"},
              {"id": "down", "type": "v2ex", "sections": ["hot"], "api_url": "\(closedURL)"}
            ]\(language.map { #", "language": "\#($0)""# } ?? "")}
            """)
    }

    func run(_ arguments: [String], language: String) throws -> CLIRunner.Result {
        try runner.run(arguments, in: directory.path, extraEnvironment: ["LANG": language])
    }

    func testTheCLISpeaksTheLocalesLanguageAndMachineOutputStaysTheSame() throws {
        try writeRefreshConfig()
        let english = try run(["refresh", "v2ex"], language: "C")
        XCTAssertEqual(english.status, 0, english.stderr)
        XCTAssertTrue(english.stderr.contains("1 provider refreshed in "), english.stderr)

        let chinese = try run(["refresh", "--force"], language: "zh_CN.UTF-8")
        XCTAssertEqual(chinese.status, 2, "the exit code does not depend on the language: \(chinese.stderr)")
        XCTAssertTrue(chinese.stderr.contains("2 个提供者刷新用时 "), chinese.stderr)
        XCTAssertTrue(chinese.stderr.contains("1 个失败（down）"), chinese.stderr)
        XCTAssertTrue(chinese.stderr.contains("down hot: 失败：无法连接 "), chinese.stderr)
        let again = try run(["refresh", "--force"], language: "C")
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("2 providers refreshed in ") && again.stderr.contains("1 failed (down)"), again.stderr)
        XCTAssertTrue(again.stderr.contains("down hot: failed: cannot connect to "), again.stderr)

        // The timeline for people: ages and counts in the language, columns still aligned.
        let timelineZH = try run(["timeline"], language: "zh_CN.UTF-8").stdout
        let timelineEN = try run(["timeline"], language: "C").stdout
        XCTAssertTrue(timelineZH.contains(" 回复"), timelineZH)
        XCTAssertFalse(timelineZH.contains("replies"), timelineZH)
        XCTAssertTrue(timelineEN.contains(" replies"), timelineEN)
        let widths = Set(
            timelineZH.split(separator: "\n").map { line in
                // The title column starts at the same cell on every line.
                DisplayWidth.of(String(line.prefix { $0 != "v" }))
            })
        XCTAssertEqual(widths.count, 1, "ages pad to the same width in cells:\n\(timelineZH)")

        // What programs read is the same bytes whatever the language.
        for arguments in [
            ["timeline", "--format", "json"], ["timeline", "--format", "ndjson"], ["timeline", "--format", "tsv"],
            ["search", "Swift", "--format", "json"], ["show", "1", "--format", "json"],
        ] {
            let a = try run(arguments, language: "C")
            let b = try run(arguments, language: "zh_CN.UTF-8")
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(a.stdout, b.stdout, "\(arguments) differs between languages")
            XCTAssertEqual(a.status, b.status)
        }

        // A filter error: the message in the language, the expression and caret exact.
        let filterEN = try run(["timeline", "--where", "replies > 2 and stars >"], language: "C")
        let filterZH = try run(["timeline", "--where", "replies > 2 and stars >"], language: "zh_CN.UTF-8")
        XCTAssertEqual(filterEN.status, 64)
        XCTAssertEqual(filterZH.status, 64)
        XCTAssertTrue(
            filterEN.stderr.hasPrefix("aggr: --where: stars > needs a number, found the end of the filter (column 24)\n"), filterEN.stderr)
        XCTAssertTrue(filterZH.stderr.hasPrefix("aggr: --where: stars > 需要数字，但遇到的是筛选条件结尾（第 24 列）\n"), filterZH.stderr)
        XCTAssertEqual(
            filterEN.stderr.split(separator: "\n").dropFirst(), filterZH.stderr.split(separator: "\n").dropFirst(),
            "the expression and its caret are the same lines")

        // A config error names the key exactly in both languages.
        directory.write("bad.json", #"{"providers": [{"id": "x", "type": "v2ex", "sections": ["hot"], "intervall": "5m"}]}"#)
        let configZH = try run(["timeline", "--config", "bad.json"], language: "zh_CN.UTF-8")
        XCTAssertEqual(configZH.status, 78)
        XCTAssertTrue(configZH.stderr.contains("providers[0]") && configZH.stderr.contains("未知的键“intervall”"), configZH.stderr)
        XCTAssertTrue(configZH.stderr.contains("是否想输入“interval”"), configZH.stderr)

        // Help and plural forms.
        XCTAssertTrue(try run(["--help"], language: "zh_CN.UTF-8").stdout.contains("合并成一条可筛选的时间线"))
        XCTAssertTrue(try run(["--help"], language: "C").stdout.contains("One merged, filterable timeline"))
        let marked = try run(["read", "1"], language: "C").stderr
        XCTAssertTrue(marked.contains("marked 1 item read"), marked)
        let markedTwo = try run(["read", "1", "2", "--unread"], language: "C").stderr
        XCTAssertTrue(markedTwo.contains("marked 2 items unread"), markedTwo)
        XCTAssertTrue(try run(["read", "1", "2"], language: "zh_CN.UTF-8").stderr.contains("已将 2 个条目标为已读"))
        XCTAssertTrue(try run(["read", "1", "--unread"], language: "zh_TW.UTF-8").stderr.contains("未读"), "zh_TW falls back to zh-Hans")
    }

    func testLangFlagConfigKeyAndACatalogDroppedInAGGR_LOCALE_DIR() throws {
        try writeRefreshConfig()
        XCTAssertTrue(try run(["--lang", "zh-Hans", "--help"], language: "C").stdout.contains("合并成一条可筛选的时间线"))
        XCTAssertTrue(try run(["timeline", "--lang=en"], language: "zh_CN.UTF-8").stderr.contains("nothing stored yet"))
        let unknown = try run(["--lang", "tlh", "timeline"], language: "C")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("--lang: no catalog for language \"tlh\" (have: en, zh-Hans"), unknown.stderr)

        try writeRefreshConfig(language: "zh-Hans")
        XCTAssertTrue(try run(["timeline"], language: "C").stderr.contains("还没有存储任何内容"), "the config's language")
        XCTAssertTrue(try run(["timeline", "--lang", "en"], language: "C").stderr.contains("nothing stored yet"), "--lang over it")
        try writeRefreshConfig(language: "tlh")
        let badConfig = try run(["timeline"], language: "C")
        XCTAssertEqual(badConfig.status, 78)
        XCTAssertTrue(badConfig.stderr.contains("language: no catalog for \"tlh\" (have: en, zh-Hans)"), badConfig.stderr)

        // A translator's new catalog works without rebuilding aggr.
        try writeRefreshConfig()
        let folder = directory.file("locale")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        directory.write(
            "locale/eo.po",
            """
            msgid ""
            msgstr ""
            "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

            msgid "nothing stored yet: run `aggr refresh`"
            msgstr "nenio konservita ankoraŭ: rulu `aggr refresh`"
            """)
        let esperanto = try runner.run(
            ["timeline"], in: directory.path, extraEnvironment: ["LANG": "eo.UTF-8", "AGGR_LOCALE_DIR": folder])
        XCTAssertTrue(esperanto.stderr.contains("nenio konservita ankoraŭ"), esperanto.stderr)
        directory.write("locale/eo.po", "msgid \"a\"\nmsgstr \"b")
        let broken = try runner.run(["timeline"], in: directory.path, extraEnvironment: ["LANG": "eo", "AGGR_LOCALE_DIR": folder])
        XCTAssertEqual(broken.status, 64)
        XCTAssertTrue(broken.stderr.contains("eo.po:2: an unterminated string"), broken.stderr)
    }

    func testTheReaderInChinese() throws {
        writeConfig()
        try importItems()
        let tui = try startReader(language: "zh_CN.UTF-8")
        var screen = try tui.waitFor("数据库选型讨论")
        XCTAssertTrue(screen.contains("? 帮助"), screen)
        XCTAssertTrue(screen.split(separator: "\n").first?.contains("全部 6") == true, "the All tab in Chinese: \(screen)")
        try tui.send("?")
        screen = try tui.waitFor("本帮助")
        XCTAssertTrue(screen.contains("下一个标签页") && screen.contains("向下翻页"), screen)
        try tui.send("q")
        try tui.send("j", "j", "Enter")
        screen = try tui.waitFor("看场景")
        XCTAssertTrue(screen.contains("2 回复"), screen)
    }

    func startReader(language: String) throws -> TmuxSession {
        var environment = runner.environment
        environment.removeValue(forKey: "AGGR_NOW")
        environment["LANG"] = language
        do {
            return try TmuxSession(
                command: "TERM=xterm-256color '\(runner.binary)' tui; sleep 60", width: 100, height: 30, environment: environment,
                directory: directory.path)
        } catch let error as TmuxError {
            throw XCTSkip(error.description)
        }
    }

    func testTheWebFollowsAcceptLanguageAndTheSwitchAndFeedsStayTheSame() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        let chinese = session(base)
        let zh = [("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.8")]
        let signIn = try chinese.send("GET", "/login", headers: zh)
        XCTAssertTrue(signIn.body.contains(#"<html lang="zh-Hans">"#), signIn.body)
        XCTAssertTrue(signIn.body.contains(">登录</button>") && signIn.body.contains("placeholder=\"密码\""), signIn.body)
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: signIn.body))
        let wrong = try chinese.send("POST", "/login", form: [("csrf", token), ("password", "nope")], headers: zh)
        XCTAssertEqual(wrong.status, 403)
        XCTAssertTrue(wrong.body.contains("密码错误。"), wrong.body)
        XCTAssertEqual(
            try chinese.send("POST", "/login", form: [("csrf", token), ("password", "PASSW0RD-S3CRET")], headers: zh).status, 303)
        let home = try chinese.send("GET", "/", headers: zh)
        XCTAssertTrue(home.body.contains(#"<html lang="zh-Hans">"#))
        for text in [">标为已读</button>", ">收藏</button>", "placeholder=\"搜索\"", ">只看未读</a>", "2 回复", "hreflang=\"en\""] {
            XCTAssertTrue(home.body.contains(text), "\(text) on the Chinese page")
        }
        XCTAssertTrue(home.header("Vary")?.contains("Accept-Language") == true)

        // The switch: English, remembered by a cookie over the browser's Accept-Language.
        let switched = try chinese.send("GET", "/?lang=en", headers: zh)
        XCTAssertTrue(switched.header("Set-Cookie")?.hasPrefix("aggr_lang=en;") == true, "\(switched.headers)")
        let after = try chinese.send("GET", "/", headers: zh)
        XCTAssertTrue(after.body.contains(#"<html lang="en">"#) && after.body.contains(">Mark read</button>"), "the cookie wins")

        // An English browser gets English; a feed and the reader API are the same bytes for both.
        let english = session(base)
        XCTAssertEqual(
            try english.send("POST", "/accounts/ClientLogin", form: [("Email", "aggr"), ("Passwd", "PASSW0RD-S3CRET")]).status, 200)
        let basic = "aggr:PASSW0RD-S3CRET"
        let feedEN = try english.send("GET", "/feeds/all.json", headers: [("Accept-Language", "en")], user: basic)
        let feedZH = try english.send("GET", "/feeds/all.json", headers: zh, user: basic)
        XCTAssertEqual(feedEN.status, 200)
        XCTAssertEqual(feedEN.body, feedZH.body, "a feed's data is not translated")
        let atomEN = try english.send("GET", "/feeds/view/chinese.atom", headers: [("Accept-Language", "en")], user: basic)
        let atomZH = try english.send("GET", "/feeds/view/chinese.atom", headers: zh, user: basic)
        XCTAssertEqual(atomEN.body, atomZH.body)
        let login = try english.send("POST", "/accounts/ClientLogin", form: [("Email", "aggr"), ("Passwd", "PASSW0RD-S3CRET")])
        let auth = try XCTUnwrap(login.body.split(separator: "\n").first { $0.hasPrefix("Auth=") }).dropFirst(5)
        let api = "/reader/api/0/stream/contents/user/-/state/com.google/reading-list?output=json"
        let apiEN = try english.send("GET", api, headers: [("Authorization", "GoogleLogin auth=\(auth)"), ("Accept-Language", "en")])
        let apiZH = try english.send("GET", api, headers: [("Authorization", "GoogleLogin auth=\(auth)")] + zh)
        XCTAssertEqual(apiEN.status, 200, apiEN.body)
        // `updated` is the time of the answer, which may tick between the two requests.
        func withoutTime(_ body: String) -> String {
            body.replacingOccurrences(of: #""updated":[0-9]+"#, with: #""updated":0"#, options: .regularExpression)
        }
        XCTAssertEqual(withoutTime(apiEN.body), withoutTime(apiZH.body), "the reader API's data is not translated")
    }
}
