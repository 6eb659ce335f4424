import Foundation

/// A real HTTP/1.1 server on a loopback address (port chosen by the system) for tests
/// and benchmarks: routes answer from closures, with added latency, any status and
/// headers, gzip bodies, stalled or reset connections, and a log of what was received.
public final class TestHTTPServer: @unchecked Sendable {
    /// One request as received.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: String
        public var headers: [(String, String)]
        public var host: String
        /// The request body (a POST's form or JSON).
        public var body: [UInt8] = []

        /// The first value of header `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// What to answer.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        /// Time to wait before answering.
        public var delay: TimeInterval
        /// Send the body gzip-encoded with `Content-Encoding: gzip`.
        public var gzip: Bool
        public var behavior: Behavior

        public init(
            status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], delay: TimeInterval = 0,
            gzip: Bool = false, behavior: Behavior = .answer
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.gzip = gzip
            self.behavior = behavior
        }

        /// A 200 answer with `text` as its body.
        public static func text(
            _ text: String, status: Int = 200, contentType: String = "application/json; charset=utf-8",
            headers: [(String, String)] = []
        ) -> Response {
            Response(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
        }
    }

    /// How the connection behaves instead of a normal answer.
    public enum Behavior: Sendable {
        case answer
        /// Never answer; the connection stays open until the client gives up or the server stops.
        case stall
        /// Close the connection with a TCP reset before answering.
        case reset
        /// Send the headers and only part of the announced body, then close.
        case truncate
    }

    public typealias Handler = @Sendable (Request) -> Response

    public let host: String
    public private(set) var port: Int = 0
    private let listener: Int32
    private let lock = NSLock()
    // Invariant: the fields below are read and written only while holding `lock`.
    private var routes: [(prefix: String, handler: Handler)] = []
    private var log: [Request] = []
    private var connections: Set<Int32> = []
    private var stopped = false
    private var connectionCount = 0
    private let acceptEnded = DispatchSemaphore(value: 0)
    /// Wakes the threads sleeping out a response's delay when the server stops.
    private let stopping = NSCondition()

    /// Starts listening on `host` (a 127.0.0.0/8 address) at a free port.
    public init(host: String = "127.0.0.1") throws {
        precondition(host.hasPrefix("127."), "the test server only listens on loopback")
        self.host = host
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, host, &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 512) == 0 else {
            close(listener)
            throw TestServerError(message: "cannot listen on \(host): \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test-server-accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://host:port`.
    public var baseURL: String { "http://\(host):\(port)" }

    /// Answers requests whose path starts with `prefix` (longest prefix wins); routing the
    /// same prefix again replaces its handler.
    public func route(_ prefix: String, _ handler: @escaping Handler) {
        lock.withLock {
            routes.removeAll { $0.prefix == prefix }
            routes.append((prefix, handler))
            routes.sort { $0.prefix.count > $1.prefix.count }
        }
    }

    /// Every request received so far, in order.
    public var requests: [Request] { lock.withLock { log } }

    /// How many TCP connections were accepted (connection reuse keeps this low).
    public var acceptedConnections: Int { lock.withLock { connectionCount } }

    /// How many accepted connections are still open (a client that closed its own is gone).
    public var openConnections: Int { lock.withLock { connections.count } }

    /// Stops accepting, ends every connection and stalled answer, and returns once the
    /// listening socket is closed.
    ///
    /// Sockets are only shut down here; the thread that owns each one closes it, so a
    /// descriptor number is never closed twice after being reused by a later test.
    public func stop() {
        let (open, first): (Set<Int32>, Bool) = lock.withLock {
            if stopped { return ([], false) }
            stopped = true
            return (connections, true)
        }
        guard first else { return }
        stopping.withLock { stopping.broadcast() }
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        acceptEnded.wait()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer {
            close(listener)
            acceptEnded.signal()
        }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if isStopped { return }
                continue
            }
            var one: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let accepted = lock.withLock {
                if stopped { return false }
                connections.insert(connection)
                connectionCount += 1
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            _ = lock.withLock { connections.remove(connection) }
            close(connection)
        }
        var buffer: [UInt8] = []
        while let request = readRequest(connection, buffer: &buffer) {
            lock.withLock { log.append(request) }
            let handler = lock.withLock { routes.first { request.path.hasPrefix($0.prefix) }?.handler }
            let response = handler?(request) ?? .text("no route for \(request.path)", status: 404, contentType: "text/plain")
            if response.delay > 0 { sleepUnlessStopped(response.delay) }
            switch response.behavior {
            case .stall:
                sleepUnlessStopped(3_600)
                return
            case .reset:
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                return
            case .answer, .truncate:
                guard write(response, request: request, to: connection) else { return }
                if request.header("Connection")?.lowercased() == "close" { return }
            }
        }
    }

    /// Sleeps `seconds` in one wait, cut short when the server stops (a 20 ms polling loop
    /// cost the benchmark's hundred servers a fifth of a core during a refresh).
    private func sleepUnlessStopped(_ seconds: TimeInterval) {
        let end = Date().addingTimeInterval(seconds)
        stopping.withLock {
            while !isStopped, stopping.wait(until: end) {}
        }
    }

    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> Request? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let end = buffer.firstRange(of: separator) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                var lines = head.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                let headers: [(String, String)] = lines.compactMap { line in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                let target = String(requestLine[1])
                let parts = target.split(separator: "?", maxSplits: 1)
                let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
                while buffer.count < length {
                    let count = read(connection, &chunk, chunk.count)
                    if count <= 0 { return nil }
                    buffer += chunk[0..<count]
                }
                let body = Array(buffer[0..<length])
                buffer.removeFirst(length)
                return Request(
                    method: String(requestLine[0]), path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
                    headers: headers, host: host, body: body)
            }
            let count = read(connection, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffer += chunk[0..<count]
        }
    }

    private func write(_ response: Response, request: Request, to connection: Int32) -> Bool {
        let body = response.gzip ? GzipStream.encode(response.body) : response.body
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.gzip { head += "Content-Encoding: gzip\r\n" }
        if request.method != "HEAD", response.status != 304, response.status != 204 {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if request.method != "HEAD", response.status != 304, response.status != 204 {
            bytes += response.behavior == .truncate ? Array(body.prefix(body.count / 2)) : body
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return response.behavior != .truncate
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// The test server could not start.
public struct TestServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
