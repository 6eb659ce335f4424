import Aggregator
import AggregatorTestSupport
import XCTest

/// `cookie_env` sessions, signed json requests and `aggr providers --check`, end to end.
final class SignedInReadingTests: EndToEndTestCase {
    static let cookie = "A2=\"2|1:0|10:1732150000|2:A2|48:c2Vzc2lvbi1zZWNyZXQtdmFsdWUtOTk=\"; V2EX_LANG=zhcn"
    static let token = "v2ex-token-for-check-77"

    func testALoginOnlyPageReadsWithTheCookieWhichGoesNowhereElse() throws {
        let web = try TestHTTPServer(host: "127.0.0.1")
        let api = try TestHTTPServer(host: "127.0.0.2")
        let elsewhere = try TestHTTPServer(host: "127.0.0.3")
        defer { [web, api, elsewhere].forEach { $0.stop() } }
        let tab = try fixture("v2ex/tab-tech.html")
        let signin = try fixture("v2ex/signin.html")
        // Not the tab's page: sections run concurrently and must not share topics here.
        let node = try fixture("v2ex/node-swift-p2.html")
        let valid = Self.cookie
        web.route("/signin") { _ in .text(signin, contentType: "text/html") }
        web.route("/go/moved") { _ in TestHTTPServer.Response(status: 302, headers: [("Location", "\(elsewhere.baseURL)/go/moved")]) }
        web.route("/") { request in
            guard request.header("Cookie") == valid else {
                return TestHTTPServer.Response(status: 302, headers: [("Location", "/signin?next=/?tab=members")])
            }
            return .text(tab, contentType: "text/html", headers: [("Date", "Sat, 21 Nov 2026 01:00:00 GMT")])
        }
        api.route("/api/topics/hot.json") { _ in .text("[]") }
        elsewhere.route("/go/moved") { _ in .text(node, contentType: "text/html") }
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "v2ex", "type": "v2ex", "api_url": "\(api.baseURL)", "web_url": "\(web.baseURL)",
              "cookie_env": "V2EX_TEST_COOKIE", "sections": ["tab/members", "hot", "node/moved"]}]}
            """)
        let refresh = try runner.run(
            ["refresh", "--record", directory.file("rec")], in: directory.path, extraEnvironment: ["V2EX_TEST_COOKIE": valid])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("v2ex tab/members: 1 new"), refresh.stderr)
        XCTAssertEqual(web.requests.first { $0.query == "tab=members" }?.header("Cookie"), valid, "the web page got the session")
        XCTAssertFalse(api.requests.isEmpty)
        XCTAssertTrue(api.requests.allSatisfy { $0.header("Cookie") == nil }, "the API host never gets the cookie")
        XCTAssertFalse(elsewhere.requests.isEmpty, "the redirect was followed")
        XCTAssertTrue(elsewhere.requests.allSatisfy { $0.header("Cookie") == nil }, "nor does another host after a redirect")

        // The session ended: the site sends its sign-in page, and aggr says so.
        let expired = try runner.run(
            ["refresh", "--force"], in: directory.path, extraEnvironment: ["V2EX_TEST_COOKIE": "A2=expired-session-1234"])
        XCTAssertTrue(
            expired.stderr.contains(
                "v2ex tab/members: failed: tab/members needs a token or sign-in: signed out: refresh the cookie in $V2EX_TEST_COOKIE"),
            expired.stderr)

        var seen = refresh.stdout + refresh.stderr + expired.stdout + expired.stderr
        seen += try aggr("timeline", "--format", "ndjson").stdout + (try aggr("providers").stdout)
        let files = recordedFiles(in: directory.file("rec"))
        XCTAssertGreaterThan(files.count, 1, "responses were recorded")
        let database = try storedBytes()
        for secret in ["c2Vzc2lvbi1zZWNyZXQtdmFsdWUtOTk=", "expired-session-1234"] {
            XCTAssertFalse(seen.contains(secret), "the cookie reached the output")
            for file in files {
                let bytes = try XCTUnwrap(FileManager.default.contents(atPath: file))
                XCTAssertNil(bytes.range(of: Data(secret.utf8)), "\(file) holds the cookie")
            }
            XCTAssertNil(database.range(of: Data(secret.utf8)), "the database holds the cookie")
        }
    }

    func testProvidersCheckAsksOnceForTheTokenAndOnceForTheCookie() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let token = Self.token
        let cookie = Self.cookie
        server.route("/api/v2/member") { request in
            request.header("Authorization") == "Bearer \(token)"
                ? .text(#"{"success": true, "result": {"username": "alice"}}"#)
                : .text(#"{"success": false, "message": "Invalid token"}"#, status: 401)
        }
        server.route("/signin") { _ in .text(#"<form action="/signin"><input type="password" name="p"></form>"#, contentType: "text/html") }
        server.route("/") { request in
            request.header("Cookie") == cookie
                ? .text(#"<a href="/notifications">0 条未读提醒</a>"#, contentType: "text/html")
                : TestHTTPServer.Response(status: 302, headers: [("Location", "/signin")])
        }
        directory.write(
            "providers.json",
            """
            {"providers": [{"id": "v2ex", "type": "v2ex", "api_url": "\(server.baseURL)", "web_url": "\(server.baseURL)",
              "token_env": "V2EX_CHECK_TOKEN", "cookie_env": "V2EX_CHECK_COOKIE", "sections": ["hot"]}]}
            """)
        let good = try runner.run(
            ["providers", "--check", "v2ex"], in: directory.path,
            extraEnvironment: ["V2EX_CHECK_TOKEN": token, "V2EX_CHECK_COOKIE": cookie])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(good.stdout, "v2ex token ($V2EX_CHECK_TOKEN): accepted\nv2ex cookie ($V2EX_CHECK_COOKIE): accepted\n")
        XCTAssertEqual(server.requests.count, 2, "one request each")

        let bad = try runner.run(
            ["providers", "--check", "v2ex"], in: directory.path,
            extraEnvironment: ["V2EX_CHECK_TOKEN": "wrong-token-0000", "V2EX_CHECK_COOKIE": "A2=stale-cookie-0000"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(
            bad.stdout,
            """
            v2ex token ($V2EX_CHECK_TOKEN): rejected: HTTP 401 from \(server.baseURL)/api/v2/member: Invalid token
            v2ex cookie ($V2EX_CHECK_COOKIE): rejected: the site answered with its sign-in page: refresh the cookie in $V2EX_CHECK_COOKIE

            """)
        XCTAssertFalse(bad.stdout.contains("wrong-token-0000") || bad.stdout.contains("stale-cookie-0000"))
        let unset = try aggr("providers", "--check", "v2ex")
        XCTAssertEqual(unset.status, 1)
        XCTAssertTrue(unset.stdout.contains("v2ex token ($V2EX_CHECK_TOKEN): not configured: $V2EX_CHECK_TOKEN is not set"), unset.stdout)
        XCTAssertEqual(try aggr("providers", "--check", "v2x").stderr, "aggr: no provider \"v2x\" (did you mean \"v2ex\"?)\n")
    }

    /// The reference signature, computed by the openssl command (not by aggr's code).
    static func reference(_ algorithm: String, canonical: String, secret: String, base64: Bool) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        var arguments = ["dgst"]
        switch algorithm {
        case "hmac-sha256": arguments += ["-sha256", "-hmac", secret]
        case "hmac-sha1": arguments += ["-sha1", "-hmac", secret]
        case "sha1": arguments += ["-sha1"]
        default: arguments += ["-md5"]
        }
        arguments += ["-binary"]
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let message = algorithm.hasPrefix("hmac") ? canonical : canonical + secret
        input.fileHandleForWriting.write(Data(message.utf8))
        try input.fileHandleForWriting.close()
        let digest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return base64 ? digest.base64EncodedString() : digest.map { String(format: "%02x", $0) }.joined()
    }

    func testSignedJSONRequestsVerifyForEachAlgorithm() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw XCTSkip("openssl is not installed (scripts/bootstrap installs it)")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let secret = "campus-secret-4242"
        let body = #"{"data": [{"title": "Signed notice", "url": "/n/1", "id": "n1"}]}"#
        // Verifies like the API would: every parameter but the signature, sorted, joined.
        server.route("/api/") { request in
            let algorithm = String(request.path.dropFirst("/api/".count))
            let base64 = algorithm.hasSuffix("-b64")
            let name = base64 ? String(algorithm.dropLast(4)) : algorithm
            var pairs = (URLComponents(string: "http://h/?\(request.query)")?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
            let given = request.header("X-Sign") ?? pairs.first { $0.0 == "sign" }?.1
            pairs.removeAll { $0.0 == "sign" || (name == "hmac-sha1" && $0.0 == "page") }
            let canonical = pairs.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let expected = try? Self.reference(name, canonical: canonical, secret: secret, base64: base64)
            return given != nil && given == expected ? .text(body) : .text(#"{"error": "bad sign"}"#, status: 403)
        }
        func entry(_ id: String, _ path: String, _ sign: String) -> String {
            #"{"id": "\#(id)", "type": "json", "options": {"url": "\#(server.baseURL)/api/\#(path)?app_key=k1&page=2&q=a b", "items": "data[*]", "fields": {"title": "title", "link": "url", "id": "id"}, "sign": {\#(sign)}}}"#
        }
        directory.write(
            "providers.json",
            """
            {"providers": [
              \(entry("s256", "hmac-sha256", #""algorithm": "hmac-sha256", "secret_env": "API_SECRET", "timestamp_param": "t""#)),
              \(entry("s1", "hmac-sha1", #""algorithm": "hmac-sha1", "secret_env": "API_SECRET", "include": ["app_key", "q"]"#)),
              \(entry("sha", "sha1", #""algorithm": "sha1", "secret_env": "API_SECRET", "timestamp_param": "ts""#)),
              \(entry("md5", "md5-b64", #""algorithm": "md5", "secret_env": "API_SECRET", "encoding": "base64", "header": "X-Sign""#))
            ]}
            """)
        let result = try runner.run(
            ["refresh", "--record", directory.file("rec")], in: directory.path, extraEnvironment: ["API_SECRET": secret])
        XCTAssertEqual(result.status, 0, result.stderr)
        for id in ["s256", "s1", "sha", "md5"] {
            XCTAssertTrue(result.stderr.contains("\(id) api: 1 new"), result.stderr)
        }
        XCTAssertTrue(server.requests.contains { $0.query.contains("t=") }, "the timestamp is sent")
        XCTAssertTrue(server.requests.contains { $0.header("X-Sign") != nil }, "a header carries the signature when asked")
        let recorded = try recordedFiles(in: directory.file("rec")).map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        XCTAssertFalse((recorded + result.stderr).contains(secret), "the secret appears nowhere")
        XCTAssertTrue(recorded.contains("sign=REDACTED"), "the signature is redacted in recordings")

        let missing = try aggr("refresh", "--force")
        XCTAssertTrue(
            missing.stderr.contains("s256 api: failed: api needs a token or sign-in: requests must be signed: set $API_SECRET"),
            missing.stderr)
        directory.write("providers.json", #"{"providers": [\#(entry("bad", "x", #""algorithm": "sha512", "secret_env": "API_SECRET""#))]}"#)
        let config = try aggr("providers")
        XCTAssertEqual(config.status, 78)
        XCTAssertTrue(
            config.stderr.contains("providers[0].options.sign.algorithm: must be one of hmac-sha256, hmac-sha1, sha1, md5"), config.stderr)
    }
}
