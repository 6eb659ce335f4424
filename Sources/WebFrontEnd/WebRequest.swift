import Foundation

/// One HTTP request as the web front end sees it, independent of the server framework.
public struct WebRequest: Sendable {
    public var method: String
    /// The path, percent-decoded (`/feeds/view/releases.atom`).
    public var path: String
    /// Query parameters in order, decoded.
    public var query: [(String, String)]
    /// Header pairs; names compare case-insensitively.
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The client's address, for rate limits.
    public var client: String

    public init(method: String, target: String, headers: [(String, String)], body: [UInt8] = [], client: String = "unknown") {
        self.method = method
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts.first ?? "/").removingPercentEncoding ?? String(parts.first ?? "/")
        query = parts.count > 1 ? Self.decodeForm(String(parts[1])) : []
        self.headers = headers
        self.body = body
        self.client = client
    }

    /// `http://` and the Host the request came to, for links back to this server.
    public var origin: String { "http://" + (header("Host") ?? "127.0.0.1") }

    /// The first value of header `name`.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0.lowercased() == lowered }?.1
    }

    /// The first query parameter `name`, nil when absent or empty.
    public func parameter(_ name: String) -> String? {
        query.first { $0.0 == name }.map(\.1).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every value of query parameter `name`.
    public func parameters(_ name: String) -> [String] {
        query.filter { $0.0 == name }.map(\.1)
    }

    /// The body as `application/x-www-form-urlencoded` pairs.
    public var form: [(String, String)] {
        Self.decodeForm(String(decoding: body, as: UTF8.self))
    }

    /// The first form field `name`.
    public func field(_ name: String) -> String? {
        form.first { $0.0 == name }?.1
    }

    /// Cookie `name` from the `Cookie` header.
    public func cookie(_ name: String) -> String? {
        for header in headers where header.0.lowercased() == "cookie" {
            for pair in header.1.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// Decodes `a=1&b=x+y` (plus as space, percent escapes); malformed escapes stay as written.
    static func decodeForm(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
