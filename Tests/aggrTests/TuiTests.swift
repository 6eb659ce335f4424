import Aggregator
import AggregatorTestSupport
import XCTest

/// `aggr tui` in a real terminal: tmux runs it at a fixed size, the test sends keys and reads
/// the screen, then checks the state through the CLI and that the terminal came back sane.
final class TuiTests: ServeTestCase {
    /// Starts the reader; after it exits the pane prints its status and the terminal modes.
    func startReader(
        width: Int = 100, height: Int = 30, environment extra: [String: String] = [:], term: String = "xterm-256color"
    ) throws -> TmuxSession {
        var environment = runner.environment.merging(extra) { $1 }
        environment.removeValue(forKey: "AGGR_NOW")
        environment["LANG"] = "C.UTF-8"
        let command =
            "TERM=\(term) '\(runner.binary)' tui; echo \"EXITED $?\"; stty -a | tr ' ' '\\n' | grep -E '^-?(echo|icanon)$' | tr '\\n' ' '; echo; sleep 60"
        do {
            return try TmuxSession(command: command, width: width, height: height, environment: environment, directory: directory.path)
        } catch let error as TmuxError {
            throw XCTSkip(error.description)
        }
    }

    /// Whether the pane's `stty` line after the reader shows echo and icanon on.
    func modesRestored(_ screen: String) -> Bool {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains("icanon") }) else { return false }
        let modes = Set(line.split(separator: " ").map(String.init))
        return modes.contains("echo") && modes.contains("icanon")
    }

    func unreadList() throws -> [String] {
        try aggr("timeline", "--unread", "--all", "--no-dedupe", "--format", "ndjson").stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["title"] as? String
        }
    }

    func testReadingThroughTabsItemsThreadsSearchAndFilterThenQuittingRestoresTheTerminal() throws {
        writeConfig()
        try importItems()
        let tui = try startReader()
        var screen = try tui.waitFor("数据库选型讨论")
        let tabs = screen.split(separator: "\n").first.map(String.init) ?? ""
        for tab in ["releases 1", "chinese 3", "All 6", "v2ex 3", "shots 2", "blog 1"] {
            XCTAssertTrue(tabs.contains(tab), "tab \(tab) in \(tabs)")
        }
        XCTAssertTrue(screen.contains("Ocean app") && screen.contains("Forest icons"), screen)
        XCTAssertFalse(screen.contains("\u{1B}"), "no escape sequence from upstream text")

        // Open the topic (third: its two replies are newer): its text and its replies; opening
        // marks it read.
        try tui.send("j", "j", "Enter")
        screen = try tui.waitFor("看场景")
        XCTAssertTrue(screen.contains("SQLite 还是 PostgreSQL？"), screen)
        XCTAssertTrue(screen.contains("2 replies") && screen.contains("SQLite 足够") && screen.contains("bob"), screen)
        try tui.send("q")
        try tui.waitFor { !$0.contains("看场景") && $0.contains("Ocean app") }

        // Tab to the providers: the shots tab lists only shots.
        try tui.send("Tab", "Tab")
        screen = try tui.waitFor { $0.contains("Ocean app") && !$0.contains("数据库选型讨论") }
        XCTAssertTrue(screen.contains("Forest icons"), screen)
        try tui.send("BTab", "BTab")
        try tui.waitFor("数据库选型讨论")

        // Search, then clear it with q.
        try tui.submit("/", "Forest")
        screen = try tui.waitFor { $0.contains("search: Forest") && !$0.contains("Ocean app") }
        XCTAssertTrue(screen.contains("Forest icons"), screen)
        // Toggle saved and read on the match.
        try tui.send("s")
        try tui.waitFor("saved")
        try tui.send("r")
        try tui.waitFor("marked read")
        try tui.send("q")
        try tui.waitFor("Ocean app")

        // A bad filter: the error and its caret under the list.
        try tui.submit("f", "likes >")
        screen = try tui.waitFor("^")
        XCTAssertTrue(screen.contains("likes >") && screen.contains("(column 8)"), screen)
        // A good one narrows the list.
        try tui.send("f", "C-u")
        try tui.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try tui.type("likes > 10")
        try tui.send("Enter")
        screen = try tui.waitFor { $0.contains("filter: likes > 10") && !$0.contains("Forest icons") }
        XCTAssertTrue(screen.contains("Ocean app"), screen)

        try tui.send("q", "q")
        screen = try tui.waitFor("icanon")
        XCTAssertTrue(screen.contains("EXITED 0"), screen)
        XCTAssertTrue(modesRestored(screen), "echo and canonical mode are back: \(screen)")

        let unread = try unreadList()
        XCTAssertFalse(unread.contains("数据库选型讨论"), "opening marked it read")
        XCTAssertFalse(unread.contains("Forest icons"), "r marked it read")
        XCTAssertTrue(unread.contains("Ocean app"))
        XCTAssertTrue(try aggr("timeline", "--saved", "--format", "tsv").stdout.contains("Forest icons"))
    }

    /// Ages older than a week fit the four-cell column whole (it showed `Nov…` and `202…`).
    func testOldItemsShowWholeAgesInTheList() throws {
        writeConfig()
        let now = Date()
        let lines = [(15, "Fortnight old post", "o1"), (400, "Last year's post", "o2")].map { days, title, id in
            let published = ISOTimestamp.format(now.addingTimeInterval(-Double(days) * 86_400 - 600))
            return """
                {"provider":"blog","section":"feed","id":"\(id)","kind":"post","title":"\(title)","url":"https://blog.example/\(id)","author":null,"published":"\(published)","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}
                """
        }
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n")).status, 0)
        let tui = try startReader(width: 60, height: 12)
        let screen = try tui.waitFor { $0.contains("Fortnight old post") && $0.contains("Last year's post") }
        let rows = screen.split(separator: "\n").map(String.init)
        let fortnight = try XCTUnwrap(rows.first { $0.contains("Fortnight old post") })
        let lastYear = try XCTUnwrap(rows.first { $0.contains("Last year's post") })
        XCTAssertTrue(fortnight.contains(" 2w "), fortnight)
        XCTAssertTrue(lastYear.contains(" 1y "), lastYear)
        XCTAssertFalse((fortnight + lastYear).contains("…"), "no age is cut short")
        try tui.send("q")
        try tui.waitFor("EXITED 0")
    }

    /// What an afternoon in the reader ran into: G reaches the tab's real end, Esc never
    /// quits, Ctrl-U clears a prompt, an empty search names its tab, and an item whose replies
    /// cannot be fetched says why.
    func testEndEscapeLineEditingAndTheReasonsTheReaderGives() throws {
        writeConfig()
        let base = Date(timeIntervalSince1970: 1_795_000_000)
        var lines = (0..<450).map { index in
            let published = ISOTimestamp.format(base.addingTimeInterval(Double(index) * 60))
            return """
                {"provider":"blog","section":"feed","id":"n\(index)","kind":"post","title":"Note \(String(format: "%03d", index))","url":"https://blog.example/\(index)","author":null,"published":"\(published)","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}
                """
        }
        lines.append(
            """
            {"provider":"gone","section":"hot","id":"t1","kind":"topic","title":"Lonely topic","url":"https://gone.example/t1","author":null,"published":"2026-11-01T00:00:00Z","updated":null,"summary":"left behind","tags":[],"metrics":{"replies":1},"image":null,"extra":{}}
            """)
        XCTAssertEqual(try aggr("import", "-", input: lines.joined(separator: "\n")).status, 0)
        let tui = try startReader()
        let first = try tui.waitFor("1/200+")
        XCTAssertTrue(first.contains("1/200+"), "the position says more can load: \(first)")
        try tui.send("G")
        var screen = try tui.waitFor("451/451")
        XCTAssertTrue(screen.contains("451/451") && screen.contains("Note 000"), "G went to the tab's real end: \(screen)")

        // A bad filter, then Esc twice: the error goes, the reader stays.
        try tui.submit("f", "likes >")
        try tui.waitFor("(column 8)")
        try tui.send("Escape")
        screen = try tui.waitFor("q quits")
        XCTAssertTrue(screen.contains("q quits") && !screen.contains("(column 8)"), "Esc cleared the error: \(screen)")
        try tui.send("Escape")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertFalse(try tui.screen().contains("EXITED"), "Esc never quits")

        // Ctrl-U clears what was typed; an empty search says where it looked.
        try tui.send("/")
        try tui.type("typo")
        try tui.send("C-u")
        try tui.type("nothingatall")
        try tui.send("Enter")
        screen = try tui.waitFor("no matches for \"nothingatall\" in All; Esc clears the search")
        XCTAssertTrue(screen.contains("no matches for \"nothingatall\" in All; Esc clears the search"), screen)
        XCTAssertTrue(screen.contains("search: nothingatall in All"), "Ctrl-U cleared \"typo\": \(screen)")
        try tui.send("Escape")
        try tui.waitFor("Note 449")

        // Replies counted upstream but never stored, from a provider no longer configured.
        try tui.submit("/", "Lonely")
        try tui.waitFor("search: Lonely in All")
        try tui.send("Enter")
        screen = try tui.waitFor("none stored")
        XCTAssertTrue(
            screen.contains("1 reply counted upstream, none stored: its provider \"gone\" is no longer in providers.json"), screen)
        try tui.send("q", "q", "q")
        try tui.waitFor("EXITED 0")
    }

    func testSIGTERMResizeAndRemappedKeys() throws {
        writeConfig(#", "keys": {"toggle-read": "m"}"#)
        try importItems()
        let tui = try startReader(width: 80, height: 24)
        try tui.waitFor("Ocean app")
        // Remapped: m toggles read, r no longer does.
        try tui.send("r")
        try tui.send("m")
        try tui.waitFor("marked read")
        XCTAssertEqual(try unreadList().count, 5)

        try tui.resize(width: 50, height: 12)
        let narrow = try tui.waitFor { screen in
            screen.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 50 } && screen.contains("Ocean")
        }
        XCTAssertLessThanOrEqual(narrow.split(separator: "\n", omittingEmptySubsequences: false).count, 13, narrow)

        // SIGTERM from outside: the terminal is restored on the way out.
        let shell = try XCTUnwrap(try tui.panePID())
        let find = Process()
        find.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        find.arguments = ["-P", String(shell)]
        let output = Pipe()
        find.standardOutput = output
        try find.run()
        let children = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        find.waitUntilExit()
        let reader = try XCTUnwrap(children.split(separator: "\n").compactMap { Int32($0) }.first, "the reader's pid")
        kill(reader, SIGTERM)
        let screen = try tui.waitFor("icanon")
        XCTAssertTrue(screen.contains("EXITED 143"), screen)
        XCTAssertTrue(modesRestored(screen), "terminal modes restored after SIGTERM: \(screen)")
    }

    func testOpeningATopicWithoutStoredRepliesFetchesThemThroughTheProvider() throws {
        let server = try refreshedV2EXHotList()
        defer { server.stop() }

        let tui = try startReader()
        try tui.waitFor("Swift 还是 Rust")
        try tui.send("Enter")
        var screen = try tui.waitFor("Swift，因为 SwiftUI。")
        XCTAssertTrue(screen.contains("1 of 42 replies") && screen.contains("bob"), screen)
        XCTAssertEqual(server.requests.filter { $0.path == "/api/replies/show.json" }.count, 1)

        // An upstream fault is shown on the page, naming the provider and the section.
        try tui.send("q", "j", "j", "Enter")
        screen = try tui.waitFor("replies not fetched")
        XCTAssertTrue(screen.contains("v2ex topic/700003"), screen)
        try tui.send("q", "q")
        try tui.waitFor("EXITED 0")

        // The reply was stored like any other, under its topic, without a section of its own.
        let stored = try aggr("timeline", "--all", "--kind", "reply", "--format", "tsv")
        XCTAssertTrue(stored.stdout.contains("Swift 还是 Rust"), stored.stdout)
        let sections = try openStore().sections().map(\.key)
        XCTAssertEqual(sections, ["hot"])
    }

    /// Acting upstream from the reader: the reply written in $EDITOR reaches the site byte
    /// for byte, a thank asks on the status line first, the outcome shows there, and the
    /// item page says what was done.
    func testRepliesThanksAndFavouritesFromTheReader() throws {
        guard let site = try V2EXSiteFake() else { throw XCTSkip("../shared/fixtures is not beside the repository") }
        defer { site.stop() }
        directory.write("providers.json", site.providersJSON())
        XCTAssertEqual(try aggr("import", "-", input: site.topicLine).status, 0)
        let editor = directory.file("editor.sh")
        directory.write("editor.sh", "#!/bin/sh\nprintf '终端里写的回复\\n第二行 & 100%%\\n' > \"$1\"\n")
        chmod(editor, 0o755)
        let tui = try startReader(width: 120, environment: ["V2EX_COOKIE": site.cookie, "EDITOR": editor])
        try tui.waitFor("重磅更新")
        try tui.send("c")
        try tui.waitFor("v2ex: replied to topic 1147555")
        XCTAssertEqual(site.postedReplies, ["终端里写的回复\n第二行 & 100%"])
        try tui.send("t")
        var screen = try tui.waitFor("y/N")
        XCTAssertTrue(screen.contains("copper coins"), screen)
        try tui.send("n")
        try tui.waitFor("nothing was sent")
        XCTAssertTrue(site.received.filter { $0.path.hasPrefix("/thank/") }.isEmpty)
        try tui.send("t")
        try tui.waitFor("y/N")
        try tui.send("y")
        try tui.waitFor("v2ex: thanked topic/1147555")
        try tui.send("F")
        try tui.waitFor("v2ex: favourited topic 1147555")
        XCTAssertTrue(site.isFavourited)
        try tui.send("L")
        try tui.waitFor("V2EX has no likes")
        try tui.send("Enter")
        screen = try tui.waitFor("you replied, thanked, favourited")
        try tui.send("q", "?")
        screen = try tui.waitFor("reply upstream, composed in $EDITOR")
        try tui.send("q", "q")
        try tui.waitFor("EXITED 0")
        XCTAssertFalse(screen.contains("SECRETSESSIONVALUE"))
    }

    /// `x` reads the item's page and shows its article in place of the feed's line.
    func testFullTextInTheReader() throws {
        guard let page = SharedFixtures.bytes("readability/002/source.html") else {
            throw XCTSkip("../shared/fixtures is not beside the repository")
        }
        let site = try TestHTTPServer()
        defer { site.stop() }
        site.route("/posts/fetch") { _ in TestHTTPServer.Response(headers: [("Content-Type", "text/html")], body: page) }
        directory.write(
            "providers.json", #"{"providers": [{"id": "blog", "type": "feed", "options": {"url": "\#(site.baseURL)/feed.xml"}}]}"#)
        let item =
            #"{"provider":"blog","section":"feed","id":"a1","kind":"post","title":"Fetch API","url":"\#(site.baseURL)/posts/fetch","published":"2026-11-20T10:00:00Z","summary":"One line only."}"#
        XCTAssertEqual(try aggr("import", "-", input: item).status, 0)
        let tui = try startReader(width: 100)
        try tui.waitFor("Fetch API")
        try tui.send("x")
        let screen = try tui.waitFor("full text · by Nikhil Marathe")
        XCTAssertTrue(screen.contains("For more than a decade"), screen)
        try tui.send("q", "q")
        try tui.waitFor("EXITED 0")
        XCTAssertEqual(site.requests.count, 1)
    }

    func testColoursFollowTheTerminalsDepthAndNO_COLOR() throws {
        writeConfig()
        try importItems()
        // Each line after the reader: the escape sequences of a capture, then the TERM tmux gave.
        for (term, noColor) in [("xterm-256color", false), ("xterm", false), ("xterm-256color", true)] {
            let tui = try startReader(environment: ["TERM": term, "NO_COLOR": noColor ? "1" : ""], term: term)
            try tui.waitFor("Ocean app")
            let painted = try tui.screen(attributes: true)
            let grey = painted.contains("38;5;244")
            let basic = painted.contains(";34m") || painted.contains("[34m") || painted.contains(";36m") || painted.contains("[36m")
            switch (term, noColor) {
            case (_, true): XCTAssertFalse(grey || basic, "NO_COLOR: attributes only\n\(painted)")
            case ("xterm", _): XCTAssertTrue(basic && !grey, "8 colours: the basic palette, dim as an attribute\n\(painted)")
            default: XCTAssertTrue(basic && grey, "256 colours: dim text in grey\n\(painted)")
            }
            try tui.send("q")
            try tui.waitFor("EXITED 0")
        }
    }

    /// `aggr tui` on a pseudo-terminal (tmux passes no image sequences), with `TERM` and flags.
    func startOnPseudoTerminal(_ arguments: [String], term: String, kitty: Bool = false) throws -> PseudoTerminal {
        var environment = runner.environment
        if kitty { environment["KITTY_WINDOW_ID"] = "1" }
        environment.removeValue(forKey: "AGGR_NOW")
        environment["LANG"] = "C.UTF-8"
        environment["TERM"] = term
        let terminal = try PseudoTerminal(argv: [runner.binary, "tui"] + arguments, environment: environment, rows: 30, columns: 100)
        XCTAssertTrue(terminal.waitFor("Shot with an image"), "the list is drawn: \(String(decoding: terminal.output, as: UTF8.self))")
        return terminal
    }

    func testInlineImagesAreOffByDefaultAndDrawnWithKittyOrSixelWhenAsked() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let png = TestImage.png(width: 40, height: 20) { _, _ in [255, 0, 0, 255] }
        server.route("/shot.png") { _ in TestHTTPServer.Response(status: 200, headers: [("Content-Type", "image/png")], body: png) }
        server.route("/gone.png") { _ in .text("no", status: 404) }
        var shot = ItemFactory.item(
            provider: "shots", id: "1", title: "Shot with an image", url: "https://d.example/shots/1", minutesAgo: 1, kind: .shot)
        shot.image = "\(server.baseURL)/shot.png"
        var broken = ItemFactory.item(provider: "shots", id: "2", title: "Shot whose image is gone", minutesAgo: 2, kind: .shot)
        broken.image = "\(server.baseURL)/gone.png"
        directory.write("providers.json", #"{"providers": [{"id": "shots", "type": "feed", "options": {"url": "https://d.example/f"}}]}"#)
        let imported = try aggr("import", "-", input: [shot, broken].map(ItemJSON.line).joined(separator: "\n"))
        XCTAssertEqual(imported.status, 0, imported.stderr)

        // Off by default, even in kitty: the page opens without any image sequence or request.
        var terminal = try startOnPseudoTerminal([], term: "xterm-256color", kitty: true)
        terminal.type("\r")
        XCTAssertTrue(terminal.waitFor("https://d.example/shots/1"), "the page is open")
        XCTAssertFalse(terminal.waitFor("\u{1B}_G", timeout: 1))
        terminal.finish()
        XCTAssertTrue(server.requests.isEmpty)

        // kitty: RGBA pixels, placed over the cells kept for them; removed on the way out.
        terminal = try startOnPseudoTerminal(["--images", "auto"], term: "xterm-256color", kitty: true)
        terminal.type("\r")
        XCTAssertTrue(terminal.waitFor("\u{1B}_Ga=T,f=32,"), "a kitty image")
        XCTAssertTrue(terminal.waitFor("m=0;"), "its last chunk")
        let kitty = String(decoding: terminal.output, as: UTF8.self)
        let header = String(kitty[try XCTUnwrap(kitty.range(of: #"a=T,f=32,s=\d+,v=\d+,c=\d+,r=\d+"#, options: .regularExpression))])
        let numbers = header.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        XCTAssertEqual(numbers.count, 5, header)  // 32, s, v, c, r
        XCTAssertEqual(numbers[1] * 20, numbers[2] * 40, "the aspect is kept: \(header)")
        let first = try XCTUnwrap(kitty.range(of: "\u{1B}_Ga=T"))
        let payload = kitty[first.lowerBound...].components(separatedBy: "\u{1B}\\").prefix { $0.hasPrefix("\u{1B}_G") }
            .map { $0.split(separator: ";", maxSplits: 1).last.map(String.init) ?? "" }.joined()
        let pixels = try XCTUnwrap(Data(base64Encoded: payload))
        XCTAssertEqual(pixels.count, numbers[1] * numbers[2] * 4)
        XCTAssertEqual(Array(pixels.prefix(4)), [255, 0, 0, 255], "red, as served")
        terminal.type("q")
        XCTAssertTrue(terminal.waitFor("\u{1B}_Ga=d,d=A"), "back to the list: the image is deleted")
        terminal.finish()

        // sixel: the palette's red and six-row bands.
        terminal = try startOnPseudoTerminal(["--images", "sixel"], term: "xterm-256color")
        terminal.type("\r")
        XCTAssertTrue(terminal.waitFor("\u{1B}P0;1;0q\"1;1;"), "a sixel image")
        XCTAssertTrue(terminal.waitFor("#180;2;100;0;0"), "red in its palette")

        // An image that cannot be fetched: the status line says so and the page stays.
        terminal.type("q")
        terminal.type("j")
        terminal.type("\r")
        XCTAssertTrue(terminal.waitFor("image not shown: HTTP 404"), String(decoding: terminal.output.suffix(400), as: UTF8.self))
        terminal.finish()
    }

    /// A read mark made in the web shows in a running reader within 2 s: the reader follows
    /// the store's data version, whoever wrote (before, it noticed only new items).
    func testAReadMarkMadeInTheWebShowsInTheRunningReaderWithinTwoSeconds() throws {
        writeConfig()
        try importItems()
        let tui = try startReader()
        var screen = try tui.waitFor("All 6")
        XCTAssertTrue(screen.contains("shots 2"), screen)
        let browser = session(try startServe())
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: try browser.send("GET", "/").body))

        XCTAssertEqual(try browser.send("POST", "/item/4/read", form: [("csrf", token), ("state", "read")]).status, 303)
        screen = try tui.waitFor(timeout: 2) { $0.contains("All 5") && $0.contains("shots 1") }
        XCTAssertTrue(screen.contains("All 5") && screen.contains("shots 1"), "the web's mark within 2 s: \(screen)")

        // Marking it unread again shows too, and so does marking a whole tab read.
        XCTAssertEqual(try browser.send("POST", "/item/4/read", form: [("csrf", token), ("state", "unread")]).status, 303)
        screen = try tui.waitFor(timeout: 2) { $0.contains("All 6") && $0.contains("shots 2") }
        XCTAssertTrue(screen.contains("All 6") && screen.contains("shots 2"), "unread again within 2 s: \(screen)")
        XCTAssertEqual(try browser.send("POST", "/tab/read", form: [("csrf", token), ("tab", "p:v2ex")]).status, 303)
        // A tab without unread items shows no count.
        screen = try tui.waitFor(timeout: 2) { $0.contains("All 3") && !$0.contains("v2ex 3") }
        XCTAssertTrue(screen.contains("All 3") && !screen.contains("v2ex 3"), "the tab's mark within 2 s: \(screen)")
        try tui.send("q")
        screen = try tui.waitFor("icanon")
        XCTAssertTrue(screen.contains("EXITED 0") && modesRestored(screen), screen)
    }

    func testWithoutATerminalItSaysSo() throws {
        writeConfig()
        let result = try aggr("tui")
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("tui needs a terminal"), result.stderr)
        let images = try aggr("tui", "--images", "iterm")
        XCTAssertEqual(images.status, 64)
        XCTAssertTrue(images.stderr.contains("--images must be one of off, auto, kitty, sixel, not 'iterm'"), images.stderr)

        // A terminal terminfo does not know: said plainly, the terminal left as it was.
        var environment = runner.environment
        environment["TERM"] = "no-such-terminal"
        let terminal = try PseudoTerminal(argv: [runner.binary, "tui"], environment: environment, rows: 24, columns: 80)
        XCTAssertTrue(terminal.waitFor("terminal type 'no-such-terminal' is not in the terminfo database"))
        terminal.finish()

        // ncursesw is loaded when the reader starts, not linked: one that cannot be loaded is
        // named, and every other command goes on without it.
        let libraries = directory.file("broken-libraries")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        directory.write("broken-libraries/libncursesw.so.6", "")
        environment["TERM"] = "xterm-256color"
        environment["LD_LIBRARY_PATH"] = libraries
        let unloadable = try PseudoTerminal(argv: [runner.binary, "tui"], environment: environment, rows: 24, columns: 80)
        XCTAssertTrue(unloadable.waitFor("aggr: cannot load ncursesw: \(libraries)/libncursesw.so.6"))
        unloadable.finish()
        let timeline = try aggr("timeline", environment: ["LD_LIBRARY_PATH": libraries])
        XCTAssertEqual(timeline.status, 0, timeline.stderr)
    }
}
