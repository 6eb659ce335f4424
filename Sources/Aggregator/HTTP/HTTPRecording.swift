import Foundation

/// One recorded exchange, as `--record` writes it and `--replay` reads it.
///
/// Files are JSON, one per request, at `<dir>/<host>/<path-slug>-<hash>.json`; the URL and
/// headers are redacted and credential values are scrubbed from the body, so a recording
/// can be attached to a bug report as is.
public struct HTTPRecording: Sendable, Equatable {
    public var method: String
    /// The request URL with secrets redacted; replay matches on it.
    public var url: String
    public var status: Int
    public var headers: [[String]]
    public var body: [UInt8]

    /// Where the recording of `request` lives under `directory`.
    public static func path(for request: HTTPRequest, in directory: String) -> String {
        let redacted = SecretRedactor.redact(url: request.url)
        let components = URLComponents(string: redacted)
        let host = (components?.host ?? "unknown").lowercased()
        let port = components?.port.map { "_\($0)" } ?? ""
        var slug = (components?.path ?? "") + (components?.query.map { "?" + $0 } ?? "")
        slug = String(slug.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" })
        slug = slug.split(separator: "-").joined(separator: "-")
        let hash = BodyHash.hex(Array("\(request.method) \(redacted)".utf8)).prefix(12)
        return "\(directory)/\(host)\(port)/\(slug.prefix(80).isEmpty ? "root" : String(slug.prefix(80)))-\(hash).json"
    }

    /// The file's text.
    public var json: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("method"); writer.string(method)
        writer.key("url"); writer.string(url)
        writer.key("status"); writer.integer(status)
        writer.key("headers")
        writer.beginArray()
        for pair in headers {
            writer.beginArray()
            for part in pair { writer.string(part) }
            writer.endArray()
        }
        writer.endArray()
        if let text = String(validating: body, as: UTF8.self) {
            writer.key("body"); writer.string(text)
        } else {
            writer.key("body_base64"); writer.string(Data(body).base64EncodedString())
        }
        writer.endObject()
        return writer.output + "\n"
    }

    /// Parses a recording file; `file` names it in errors.
    public init(json text: String, file: String) throws {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw HTTPError.transport(url: file, detail: localized("recording is not JSON: \(error)"))
        }
        guard let method = value["method"]?.stringValue, let url = value["url"]?.stringValue, let status = value["status"]?.integerValue
        else { throw HTTPError.transport(url: file, detail: localized("recording lacks method, url or status")) }
        self.method = method
        self.url = url
        self.status = status
        var headers: [[String]] = []
        if case .array(let pairs)? = value["headers"] {
            for case .array(let pair) in pairs where pair.count == 2 { headers.append(pair.compactMap(\.stringValue)) }
        }
        self.headers = headers
        if let text = value["body"]?.stringValue {
            body = Array(text.utf8)
        } else if let encoded = value["body_base64"]?.stringValue, let data = Data(base64Encoded: encoded) {
            body = [UInt8](data)
        } else {
            body = []
        }
    }

    public init(method: String, url: String, status: Int, headers: [[String]], body: [UInt8]) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Passes requests to another client and saves every response under a directory.
public struct RecordingHTTPClient: HTTPClient {
    public var wrapped: any HTTPClient
    public var directory: String

    public init(wrapping wrapped: any HTTPClient, directory: String) {
        self.wrapped = wrapped
        self.directory = directory
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await wrapped.send(request)
        let secrets = SecretRedactor.secretValues(of: request)
        let body =
            String(validating: response.body, as: UTF8.self).map { Array(SecretRedactor.redact(text: $0, secrets: secrets).utf8) }
            ?? response.body
        let recording = HTTPRecording(
            method: request.method, url: SecretRedactor.redact(url: request.url), status: response.status,
            headers: SecretRedactor.redact(headers: response.headers).filter { $0.0.lowercased() != "set-cookie" }.map { [$0.0, $0.1] },
            body: body)
        let path = HTTPRecording.path(for: request, in: directory)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(recording.json.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return response
    }
}

/// Answers every request from a directory written by ``RecordingHTTPClient``, never
/// touching the network.
public struct ReplayHTTPClient: HTTPClient {
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let path = HTTPRecording.path(for: request, in: directory)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HTTPError.notRecorded(url: SecretRedactor.redact(url: request.url))
        }
        let recording = try HTTPRecording(json: String(decoding: data, as: UTF8.self), file: path)
        return HTTPResponse(
            status: recording.status, headers: recording.headers.map { ($0[0], $0[1]) }, body: recording.body, url: request.url)
    }
}
