import Aggregator
import Foundation

/// The host names `aggr serve` answers for, against DNS rebinding.
///
/// A web page the user visits can make the browser resolve its own name to 127.0.0.1 and
/// then drive a loopback server as if it were that page's origin; the `Host` header still
/// names the attacker's host. So a request is answered only when `Host` is a loopback name
/// (`localhost`, `*.localhost`, 127.0.0.0/8, `::1`), the listen address, a name in
/// `serve.hosts` (a reverse proxy's public name) or, when listening on every interface,
/// one of this machine's own addresses or its host name. A request without `Host`
/// (HTTP/1.0) comes from no browser and passes.
public struct HostAllowlist: Sendable, Equatable {
    /// Allowed names, lower-cased, without port or brackets.
    public private(set) var names: Set<String>

    public init(listen: ListenAddress, configured: [String], machine: [String] = HostAllowlist.machineNames()) {
        var names = Set(configured.map(Self.bare))
        names.insert(Self.bare(listen.host))
        if Self.isWildcard(listen.host) { names.formUnion(machine.map(Self.bare)) }
        self.names = names
    }

    /// Whether the server answers a request whose `Host` header is `header`.
    public func allows(_ header: String?) -> Bool {
        guard let header, !header.isEmpty else { return true }
        let name = Self.bare(Self.withoutPort(header))
        return Self.isLoopbackName(name) || names.contains(name)
    }

    static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "*", ""].contains(host)
    }

    /// `localhost`, `*.localhost`, 127.0.0.0/8 and `::1` (RFC 6761: they never leave the machine).
    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `name` lower-cased, without brackets or a trailing dot.
    static func bare(_ name: String) -> String {
        var text = name.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `host` of `host:port`, `[v6]` of `[v6]:port`; a bare IPv6 address stays whole.
    static func withoutPort(_ header: String) -> String {
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return header }
            return String(header[...close])
        }
        let colons = header.filter { $0 == ":" }.count
        guard colons == 1, let colon = header.lastIndex(of: ":") else { return header }
        return String(header[..<colon])
    }

    /// This machine's interface addresses and host name, for a server listening everywhere.
    public static func machineNames() -> [String] {
        var names: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !name.isEmpty { names += [name, name + ".local"] }
        }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return names }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            var text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A link-local address carries its interface (`fe80::1%eth0`), which Host never does.
            if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
            names.append(text)
        }
        return names
    }
}
