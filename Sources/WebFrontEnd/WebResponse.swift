import Aggregator
import Foundation

/// One HTTP response from the web front end.
public struct WebResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page.
    public static func html(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    /// A plain-text answer (errors for programs).
    public static func text(_ text: String, status: Int, contentType: String = "text/plain; charset=utf-8") -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    /// `303 See Other` to `location` (after a form POST).
    public static func redirect(to location: String) -> WebResponse {
        WebResponse(
            status: 303, headers: [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
            body: Array("see \(location)\n".utf8))
    }

    /// The first value of header `name`.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0.lowercased() == lowered }?.1
    }

    /// Adds a header.
    public func adding(_ name: String, _ value: String) -> WebResponse {
        var response = self
        response.headers.append((name, value))
        return response
    }
}
