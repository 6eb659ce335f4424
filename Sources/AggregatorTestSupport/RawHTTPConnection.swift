import Foundation

/// A TCP connection to a loopback server that sends exactly the bytes a test writes: slow,
/// half-sent, pipelined or malformed requests that no HTTP client library would send.
public final class RawHTTPConnection {
    private let socket: Int32

    /// Connects to `127.0.0.1:port`.
    public init(port: Int) throws {
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw RawHTTPError("connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    /// The port of an `http://127.0.0.1:PORT` base URL.
    public static func port(of base: String) -> Int {
        Int(base.split(separator: ":").last ?? "") ?? 0
    }

    deinit {
        close(socket)
    }

    /// Writes `text`; false when the server has closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// What the server sent until it closed the connection or `timeout` passed, and whether
    /// it closed.
    public func read(timeout: TimeInterval) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return (String(decoding: received, as: UTF8.self), false) }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left * 1_000)))
            if ready <= 0 { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
    }

    /// Reads until `count` responses' status lines have arrived (or the connection closed,
    /// or `timeout` passed); how many arrived.
    public func readResponses(_ count: Int, timeout: TimeInterval) -> Int {
        var seen = 0
        var tail: [UInt8] = []
        let marker = Array("HTTP/1.1 ".utf8)
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 262_144)
        while seen < count, deadline.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let received = recv(socket, &buffer, buffer.count, 0)
            if received <= 0 { break }
            let chunk = tail + buffer[0..<received]
            var index = 0
            while index + marker.count <= chunk.count {
                if chunk[index] == marker[0], Array(chunk[index..<(index + marker.count)]) == marker {
                    seen += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            tail = Array(chunk.suffix(marker.count - 1))
        }
        return seen
    }
}

/// A raw connection that could not be made.
public struct RawHTTPError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
