import Foundation

/// Sends HTTP requests for providers; the production client drives libcurl.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// One HTTP request.
public struct HTTPRequest: Sendable {
    public var url: String
    public var method: String
    /// Header pairs in order; names compare case-insensitively upstream.
    public var headers: [(String, String)]
    /// The request body (a webhook's JSON); nil sends none.
    public var body: [UInt8]?
    /// A deadline for the whole transfer shorter than the client's own (a webhook rule's
    /// `timeout`); nil uses the client's.
    public var timeoutSeconds: Int?

    public init(
        url: String, method: String = "GET", headers: [(String, String)] = [], body: [UInt8]? = nil, timeoutSeconds: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
    }
}

/// One HTTP response with its raw body.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header pairs in order of arrival (of the final response after redirects).
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The URL after redirects.
    public var url: String

    public init(status: Int, headers: [(String, String)], body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0.lowercased() == lowered }?.1
    }

    /// The server's `Date`, which relative dates on its pages ("3 分钟前") are relative to.
    public var serverDate: Date? {
        header("Date").flatMap { UpstreamDate.parse($0) }
    }
}
