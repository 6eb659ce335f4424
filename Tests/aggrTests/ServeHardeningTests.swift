import Aggregator
import AggregatorTestSupport
import XCTest

/// The attacks and faults an outside probe of `aggr serve` found, each replayed against the
/// real server: rebound host names, a sign-out flood, `Origin: null`, slow and idle
/// connections, a connection flood, NUL in filters and search.
final class ServeHardeningTests: ServeTestCase {
    func testOnlyThisServersHostNamesAreAnswered() throws {
        writeConfig(#", "serve": {"hosts": ["aggr.example.org"]}"#)
        try importItems()
        let base = try startServe()
        let port = RawHTTPConnection.port(of: base)
        let browser = session(base)
        let home = try browser.send("GET", "/")
        XCTAssertEqual(home.status, 200)
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: home.body))

        // A page on a rebound name drives the loopback server: every request is refused.
        let rebound = [("Host", "attacker.example:\(port)")]
        let page = try browser.send("GET", "/", headers: rebound)
        XCTAssertEqual(page.status, 421, page.body)
        XCTAssertTrue(page.body.contains("serve.hosts"), page.body)
        XCTAssertFalse(page.body.contains("数据库"), "no timeline for another host")
        let mark = try browser.send("POST", "/item/1/read", form: [("csrf", token), ("state", "read")], headers: rebound)
        XCTAssertEqual(mark.status, 421)
        let login = try browser.send("POST", "/accounts/ClientLogin", form: [("Email", "x"), ("Passwd", "anything")], headers: rebound)
        XCTAssertEqual(login.status, 421)
        XCTAssertTrue(try unreadTitles().contains("数据库选型讨论"), "the read mark through the rebound name did nothing")

        // Loopback names, the listen address and serve.hosts are this server.
        for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "aggr.example.org", "AGGR.example.org.:443"] {
            XCTAssertEqual(try browser.send("GET", "/", headers: [("Host", host)]).status, 200, host)
        }
    }

    func testCrossOriginAndNullOriginPostsAreRefused() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        let browser = session(base)
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: try browser.send("GET", "/").body))
        for origin in ["null", "http://evil.example"] {
            let answer = try browser.send(
                "POST", "/item/1/read", form: [("csrf", token), ("state", "read")], headers: [("Origin", origin)])
            XCTAssertEqual(answer.status, 403, origin)
        }
        // Another visitor's token does not fit this visitor's form cookie.
        let other = session(base)
        _ = try other.send("GET", "/")
        XCTAssertEqual(try other.send("POST", "/item/1/read", form: [("csrf", token), ("state", "read")]).status, 403)
        XCTAssertTrue(try unreadTitles().contains("数据库选型讨论"))
        let own = try browser.send("POST", "/item/1/read", form: [("csrf", token), ("state", "read")], headers: [("Origin", base)])
        XCTAssertEqual(own.status, 303)
        XCTAssertFalse(try unreadTitles().contains("数据库选型讨论"))
    }

    /// A database the serving user may only read (a shared file served as it is): pages are
    /// served and signing in works, the session kept in the process's memory.
    func testAReadOnlyDatabaseIsServedAndSignsIn() throws {
        try XCTSkipIf(onPostgres, "file permissions are SQLite's")
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        XCTAssertEqual(try aggr("serve", "--rotate-tokens").status, 0, "the installation's secret, made while writable")
        var binary = runner.binary
        var prefix: [String] = []
        // Root may write any file whatever its mode: serve as nobody, who may only read it.
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv (util-linux) to drop privileges")
            }
            binary = "/usr/bin/setpriv"
            prefix = ["--reuid=65534", "--regid=65534", "--clear-groups", runner.binary]
        }
        chmod(directory.path, 0o755)
        chmod(directory.file("aggr.sqlite"), 0o444)
        chmod(directory.file("providers.json"), 0o444)
        var environment = runner.environment
        environment["AGGR_PASSWORD"] = "PASSW0RD-S3CRET"
        environment.removeValue(forKey: "AGGR_NOW")
        let process = try BackgroundCommand(
            binary: binary, arguments: prefix + ["serve", "--listen", "127.0.0.1:0", "--no-refresh"], directory: directory.path,
            environment: environment)
        serve = process
        XCTAssertTrue(process.waitForOutput("listening on http://127.0.0.1:", timeout: 30), process.stderr)
        let log = process.stderr
        let range = try XCTUnwrap(log.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression), log)
        let browser = session(String(log[range]))
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: try browser.send("GET", "/login").body))
        let signIn = try browser.send("POST", "/login", form: [("csrf", token), ("password", "PASSW0RD-S3CRET")])
        XCTAssertEqual(signIn.status, 303, signIn.body)
        let page = try browser.send("GET", "/")
        XCTAssertEqual(page.status, 200, "signed in on a read-only database")
        XCTAssertTrue(page.body.contains("数据库选型讨论"))
    }

    func testAFloodOfVisitorsCannotSignOutASignedInUser() throws {
        writeConfig(#", "serve": {"password_env": "AGGR_PASSWORD"}"#)
        try importItems()
        let base = try startServe(environment: ["AGGR_PASSWORD": "PASSW0RD-S3CRET"])
        let browser = session(base)
        let token = try XCTUnwrap(CurlSession.hiddenField("csrf", in: try browser.send("GET", "/login").body))
        XCTAssertEqual(try browser.send("POST", "/login", form: [("csrf", token), ("password", "PASSW0RD-S3CRET")]).status, 303)
        XCTAssertEqual(try browser.send("GET", "/").status, 200)

        // The probe's flood: 10,100 pipelined cookie-less GET /login (the session book kept
        // 10,000 and evicted the oldest, the signed-in user's).
        let port = RawHTTPConnection.port(of: base)
        let request = "GET /login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        var answered = 0
        for _ in 0..<4 {
            let connection = try RawHTTPConnection(port: port)
            XCTAssertTrue(connection.send(String(repeating: request, count: 2_525)))
            answered += connection.readResponses(2_525, timeout: 60)
        }
        XCTAssertEqual(answered, 10_100)
        let after = try browser.send("GET", "/")
        XCTAssertEqual(after.status, 200, "still signed in after the flood: \(after.header("Location") ?? "")")
        XCTAssertTrue(after.body.contains("数据库选型讨论"))
    }

    func testSlowIdleAndHalfSentConnectionsAreClosedAtTheirDeadlines() throws {
        writeConfig(#", "serve": {"idle_timeout": "3s", "header_timeout": "1s", "body_timeout": "1s"}"#)
        let base = try startServe()
        let port = RawHTTPConnection.port(of: base)

        // Slowloris: a header line every 0.3 s never finishes the head; the header deadline
        // (1 s from the first byte) ends it long before the idle one (3 s).
        let slow = try RawHTTPConnection(port: port)
        let started = Date()
        var open = slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        var line = 0
        while open, Date().timeIntervalSince(started) < 10 {
            usleep(300_000)
            open = slow.send("X-Slow-\(line): 1\r\n") && !slow.read(timeout: 0.01).closed
            line += 1
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.9, "closed by the header deadline")

        // A body trickled after its head.
        let trickle = try RawHTTPConnection(port: port)
        XCTAssertTrue(trickle.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"))
        let bodyStart = Date()
        open = true
        while open, Date().timeIntervalSince(bodyStart) < 10 {
            usleep(300_000)
            open = trickle.send("a") && !trickle.read(timeout: 0.01).closed
        }
        XCTAssertLessThan(Date().timeIntervalSince(bodyStart), 2.9, "closed by the body deadline")

        // A connection that never says anything is closed by the idle deadline.
        let idle = try RawHTTPConnection(port: port)
        let quiet = idle.read(timeout: 15)
        XCTAssertTrue(quiet.closed, "an idle connection is closed")
        XCTAssertEqual(quiet.text, "")

        // HTTP/1.0 without keep-alive: answered, then closed at once.
        let old = try RawHTTPConnection(port: port)
        XCTAssertTrue(old.send("GET /favicon.ico HTTP/1.0\r\n\r\n"))
        let answer = old.read(timeout: 2)
        XCTAssertTrue(answer.closed, "closed after the answer: \(answer.text)")
        XCTAssertTrue(answer.text.hasPrefix("HTTP/1.1 204"), answer.text)
        XCTAssertTrue(answer.text.lowercased().contains("connection: close"), answer.text)

        // The framework's own 400 for an unparsable request carries the security headers.
        let garbage = try RawHTTPConnection(port: port)
        XCTAssertTrue(garbage.send("NOT HTTP AT ALL\r\n\r\n"))
        let refused = garbage.read(timeout: 2)
        XCTAssertTrue(refused.text.hasPrefix("HTTP/1.1 400"), refused.text)
        XCTAssertTrue(refused.text.contains("Content-Security-Policy: default-src 'none'"), refused.text)
        XCTAssertTrue(refused.text.contains("X-Content-Type-Options: nosniff"), refused.text)

        // Keep-alive still works between requests within the idle deadline.
        let kept = try RawHTTPConnection(port: port)
        XCTAssertTrue(kept.send("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        XCTAssertEqual(kept.readResponses(1, timeout: 5), 1)
        usleep(1_500_000)
        XCTAssertTrue(kept.send("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        XCTAssertEqual(kept.readResponses(1, timeout: 5), 1, "a second request after 1.5 s on the same connection")
        XCTAssertTrue(serve?.isRunning ?? false)
    }

    func testConnectionsPastTheCapAreRefusedAndServingGoesOn() throws {
        writeConfig(#", "serve": {"max_connections": 20}"#)
        let base = try startServe()
        let port = RawHTTPConnection.port(of: base)
        var held: [RawHTTPConnection] = []
        for _ in 0..<20 { held.append(try RawHTTPConnection(port: port)) }
        // Every held connection is counted once the server has its first byte.
        for connection in held { XCTAssertTrue(connection.send("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) }
        for connection in held { XCTAssertEqual(connection.readResponses(1, timeout: 5), 1) }
        let extra = try RawHTTPConnection(port: port)
        let refused = extra.read(timeout: 5)
        XCTAssertTrue(refused.text.hasPrefix("HTTP/1.1 503"), refused.text)
        XCTAssertTrue(refused.text.contains("Retry-After: 1"), refused.text)
        XCTAssertTrue(refused.closed)
        held.removeAll()
        XCTAssertTrue(
            BackgroundCommand.waitUntil(timeout: 10) { (try? self.session(base).send("GET", "/favicon.ico").status) == 204 },
            "serving again once the crowd has gone")
    }

    func testNULInFiltersAndSearchIsAClearError() throws {
        writeConfig()
        try importItems()
        let base = try startServe()
        let browser = session(base)
        let filter = try browser.send("GET", "/?where=title%20~%20'Release%00zzz'")
        XCTAssertEqual(filter.status, 400)
        XCTAssertTrue(filter.body.contains("NUL character"), filter.body)
        XCTAssertFalse(filter.body.contains("Release 2.0"), "nothing matched as if the filter ended at the NUL")
        for path in ["/feeds/search.atom?q=%00", "/feeds/search.atom?q=Release%00zzz", "/?q=%00"] {
            let answer = try browser.send("GET", path)
            XCTAssertEqual(answer.status, 400, path)
            XCTAssertTrue(answer.body.contains("NUL character"), "\(path): \(answer.body)")
        }
        XCTAssertEqual(try browser.send("GET", "/feeds/search.atom?q=Release").status, 200)

        // The CLI takes filters from providers.json too, where JSON can carry a NUL.
        directory.write(
            "providers.json",
            #"{"providers": [{"id": "blog", "type": "feed", "options": {"url": "https://blog.example/feed"}}], "views": {"bad": "title ~ 'feed\u0000zzz'"}}"#
        )
        let timeline = try aggr("timeline")
        XCTAssertEqual(timeline.status, 78, timeline.stderr)
        XCTAssertTrue(timeline.stderr.contains("views.bad") && timeline.stderr.contains("NUL character"), timeline.stderr)
    }
}
