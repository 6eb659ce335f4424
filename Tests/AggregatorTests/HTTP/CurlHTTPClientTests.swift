import Aggregator
import AggregatorTestSupport
import XCTest

final class CurlHTTPClientTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    func client(_ configure: (inout HTTPClientSettings) -> Void = { _ in }) -> CurlHTTPClient {
        var settings = HTTPClientSettings()
        configure(&settings)
        return CurlHTTPClient(settings: settings)
    }

    func testGetReturnsStatusHeadersBodyAndSendsIdentity() async throws {
        server.route("/hello") { request in
            .text("{\"path\": \"\(request.path)\", \"query\": \"\(request.query)\"}", headers: [("ETag", "\"v1\"")])
        }
        let response = try await client().send(HTTPRequest(url: "\(server.baseURL)/hello?a=1", headers: [("Accept", "application/json")]))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("etag"), "\"v1\"")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "{\"path\": \"/hello\", \"query\": \"a=1\"}")
        let received = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(received.header("Accept"), "application/json")
        XCTAssertEqual(received.header("User-Agent"), "aggr/\(AggregatorVersion.current) (+\(AggregatorVersion.projectURL))")
        XCTAssertNotNil(received.header("Accept-Encoding"), "libcurl advertises the encodings it decodes")
    }

    func testSlowEndpointsRunConcurrentlyAndReuseConnections() async throws {
        server.route("/slow") { _ in
            var response = Response.text("ok"); response.delay = 0.3; return response
        }
        let client = client()
        let url = server.baseURL
        let start = Date()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<4 {
                group.addTask { try await client.send(HTTPRequest(url: "\(url)/slow/\(index)")).status }
            }
            for try await status in group { XCTAssertEqual(status, 200) }
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, 0.9, "four 300 ms answers take about one latency, not four")
        for index in 0..<4 { _ = try await client.send(HTTPRequest(url: "\(url)/slow/again\(index)")) }
        XCTAssertLessThanOrEqual(server.acceptedConnections, 4, "sequential requests reuse the open connections")
    }

    func testPerHostLimitIsRespected() async throws {
        server.route("/slow") { _ in
            var response = Response.text("ok"); response.delay = 0.2; return response
        }
        let client = client { $0.maxPerHost = 2 }
        let url = server.baseURL
        let start = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 { group.addTask { _ = try await client.send(HTTPRequest(url: "\(url)/slow/\(index)")) } }
            try await group.waitForAll()
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.4, "two at a time: two rounds of 200 ms")
    }

    /// Closing runs on the driver's thread: the kept-alive connection ends while the client
    /// is still held, and a request sent afterwards is cancelled without reaching the server.
    func testBeginClosingEndsTheConnectionsAndRefusesNewRequests() async throws {
        server.route("/ok") { _ in .text("ok") }
        let client = client()
        let url = server.baseURL
        let first = try await client.send(HTTPRequest(url: "\(url)/ok"))
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(server.openConnections, 1, "kept alive for the next request")
        client.beginClosing()
        let deadline = Date().addingTimeInterval(5)
        while server.openConnections > 0, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertEqual(server.openConnections, 0, "the driver closed its connection")
        do {
            _ = try await client.send(HTTPRequest(url: "\(url)/ok/after"))
            XCTFail("a request after closing began was sent")
        } catch is CancellationError {}
        XCTAssertEqual(server.requests.map(\.path), ["/ok"])
    }

    /// A transfer cancelled while a limit holds it back ends at once and is never sent.
    func testCancellingAWaitingTransferNeverSendsIt() async throws {
        server.route("/stall") { _ in Response(behavior: .stall) }
        server.route("/never") { _ in .text("sent") }
        let client = client { $0.maxPerHost = 1 }
        let url = server.baseURL
        let stalled = Task { try await client.send(HTTPRequest(url: "\(url)/stall")) }
        while server.requests.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        let waiting = Task { try await client.send(HTTPRequest(url: "\(url)/never")) }
        try await assertCancelledPromptly(waiting)
        stalled.cancel()
        _ = try? await stalled.value
        XCTAssertEqual(server.requests.map(\.path), ["/stall"], "the waiting request was never sent")
    }

    func testGzipBodiesAreDecoded() async throws {
        let text = String(repeating: "压缩 gzip body ", count: 5_000)
        server.route("/gz") { _ in Response(status: 200, body: Array(text.utf8), gzip: true) }
        let response = try await client().send(HTTPRequest(url: "\(server.baseURL)/gz"))
        XCTAssertEqual(response.header("Content-Encoding"), "gzip")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), text)
    }

    func testRedirectsAreFollowedAndLimited() async throws {
        let base = server.baseURL
        server.route("/hop/") { request in
            let hop = Int(request.path.dropFirst("/hop/".count)) ?? 0
            return Response(status: 302, headers: [("Location", "\(base)/hop/\(hop + 1)")])
        }
        server.route("/start") { _ in Response(status: 301, headers: [("Location", "/final")]) }
        server.route("/final") { _ in .text("arrived") }
        server.route("/ftp") { _ in Response(status: 302, headers: [("Location", "ftp://127.0.0.1/file")]) }
        let client = client()
        let response = try await client.send(HTTPRequest(url: "\(base)/start"))
        XCTAssertEqual(response.url, "\(base)/final", "the final URL is reported")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "arrived")
        await assertThrows(try await client.send(HTTPRequest(url: "\(base)/hop/0")), .tooManyRedirects(url: "\(base)/hop/0", limit: 5))
        await assertThrows(try await client.send(HTTPRequest(url: "\(base)/ftp")), .forbiddenRedirect(url: "\(base)/ftp"))
    }

    func testBodyLimitIsEnforcedWhileReceiving() async throws {
        server.route("/big") { _ in Response(status: 200, body: [UInt8](repeating: 65, count: 300_000)) }
        server.route("/bigzip") { _ in Response(status: 200, body: [UInt8](repeating: 65, count: 300_000), gzip: true) }
        let client = client { $0.maxBodyBytes = 100_000 }
        await assertThrows(
            try await client.send(HTTPRequest(url: "\(server.baseURL)/big")), .tooLarge(url: "\(server.baseURL)/big", limit: 100_000))
        await assertThrows(
            try await client.send(HTTPRequest(url: "\(server.baseURL)/bigzip")), .tooLarge(url: "\(server.baseURL)/bigzip", limit: 100_000))
    }

    func testTimeoutsResetsAndRefusedConnections() async throws {
        server.route("/stall") { _ in Response(behavior: .stall) }
        server.route("/reset") { _ in Response(behavior: .reset) }
        server.route("/truncate") { _ in Response(status: 200, body: [UInt8](repeating: 1, count: 10_000), behavior: .truncate) }
        let client = client { $0.totalTimeoutSeconds = 1 }
        let start = Date()
        await assertThrows(
            try await client.send(HTTPRequest(url: "\(server.baseURL)/stall")), .timeout(url: "\(server.baseURL)/stall", seconds: 1))
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        do {
            _ = try await client.send(HTTPRequest(url: "\(server.baseURL)/reset"))
            XCTFail("a reset connection must fail")
        } catch HTTPError.transport(let url, _) {
            XCTAssertEqual(url, "\(server.baseURL)/reset")
        }
        do {
            _ = try await client.send(HTTPRequest(url: "\(server.baseURL)/truncate"))
            XCTFail("a truncated body must fail")
        } catch HTTPError.transport {}

        let closed = try TestHTTPServer()
        let closedURL = closed.baseURL
        closed.stop()
        do {
            _ = try await client.send(HTTPRequest(url: "\(closedURL)/x"))
            XCTFail("nothing listens there")
        } catch HTTPError.connect(let url, _) {
            XCTAssertEqual(url, "\(closedURL)/x")
        }
    }

    func testCancellationAbortsTheTransfer() async throws {
        server.route("/stall") { _ in Response(behavior: .stall) }
        let client = client()
        let url = server.baseURL
        try await assertCancelledPromptly(Task { try await client.send(HTTPRequest(url: "\(url)/stall")) })
    }

    /// Cancels `request` after 200 ms and checks it ends with `CancellationError` within a second.
    func assertCancelledPromptly(
        _ request: Task<HTTPResponse, any Error>, file: StaticString = #filePath, line: UInt = #line
    )
        async throws
    {
        try await Task.sleep(nanoseconds: 200_000_000)
        let start = Date()
        request.cancel()
        do {
            _ = try await request.value
            XCTFail("cancelled", file: file, line: line)
        } catch is CancellationError {}
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, file: file, line: line)
    }

    /// TLS verification is on by default: a self-signed server on 127.0.0.1 is refused with a
    /// clear error naming the URL.
    func testSelfSignedCertificatesAreRefused() async throws {
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else {
            throw XCTSkip("openssl is not installed (scripts/bootstrap installs it)")
        }
        let directory = TemporaryDirectory()
        let (key, certificate) = ("\(directory.path)/key.pem", "\(directory.path)/cert.pem")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: openssl)
        make.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-subj", "/CN=127.0.0.1", "-days", "1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ]
        make.standardError = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0)
        let tlsServer = Process()
        tlsServer.executableURL = URL(fileURLWithPath: openssl)
        tlsServer.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"]
        let output = Pipe()
        tlsServer.standardOutput = output
        tlsServer.standardError = FileHandle.nullDevice
        try tlsServer.run()
        defer {
            // SIGKILL: the server inherits this test thread's blocked signals, SIGTERM among
            // them, so `terminate()` left one s_server running after every suite.
            kill(tlsServer.processIdentifier, SIGKILL)
            tlsServer.waitUntilExit()
        }
        // s_server prints "ACCEPT 127.0.0.1:<port>" once it listens.
        var printed = ""
        while !printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains(where: { $0.hasPrefix("ACCEPT") }) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        let port = try XCTUnwrap(printed.split(separator: "\n").first { $0.hasPrefix("ACCEPT") }?.split(separator: ":").last, printed)
        let url = "https://127.0.0.1:\(port)/"
        do {
            _ = try await client().send(HTTPRequest(url: url))
            XCTFail("a self-signed certificate was accepted")
        } catch let error as HTTPError {
            guard case .tls(let failing, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failing, url)
            XCTAssertTrue(detail.contains("certificate"), detail)
            XCTAssertTrue("\(error)".hasPrefix("TLS failure for \(url): "), "\(error)")
        }
    }

    func testSecretsAreRedactedFromErrors() async throws {
        server.route("/private") { _ in .text("{\"message\": \"Bad credentials\"}", status: 401) }
        let url = "\(server.baseURL)/stall?access_token=s3cr3t-t0ken-value&page=2"
        server.route("/stall") { _ in Response(behavior: .stall) }
        let client = client { $0.totalTimeoutSeconds = 1 }
        do {
            _ = try await client.send(HTTPRequest(url: url, headers: [("Authorization", "Bearer s3cr3t-t0ken-value")]))
            XCTFail("times out")
        } catch {
            XCTAssertFalse("\(error)".contains("s3cr3t"), "\(error)")
            XCTAssertEqual("\(error)", "no complete answer from \(server.baseURL)/stall?access_token=REDACTED&page=2 within 1 s")
        }
        XCTAssertEqual(
            SecretRedactor.redact(url: "https://u:pw@x.example/a?token=abc&q=1"), "https://u:REDACTED@x.example/a?token=REDACTED&q=1")
        XCTAssertEqual(
            SecretRedactor.redact(headers: [("Authorization", "token x"), ("Accept", "y")]).map { "\($0.0)=\($0.1)" },
            ["Authorization=REDACTED", "Accept=y"])
    }

    func testProxyEnvironmentVariablesAreHonouredLikeCurl() async throws {
        server.route("http://feeds.example.invalid/") { request in .text("via proxy: \(request.path)") }
        setenv("http_proxy", server.baseURL, 1)
        defer { unsetenv("http_proxy") }
        // The name never reaches a resolver: the proxy on loopback receives the absolute URL.
        let response = try await client().send(HTTPRequest(url: "http://feeds.example.invalid/rss"))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "via proxy: http://feeds.example.invalid/rss")
        XCTAssertEqual(server.requests.count, 1)
    }

    func assertThrows(
        _ body: @autoclosure () async throws -> HTTPResponse, _ expected: HTTPError, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await body()
            XCTFail("expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? HTTPError, expected, file: file, line: line)
        }
    }
}

private typealias Response = TestHTTPServer.Response
