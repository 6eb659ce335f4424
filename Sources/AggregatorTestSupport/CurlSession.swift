import Foundation

/// A browser-like HTTP client for tests of `aggr serve`: the curl tool (libcurl) with a
/// cookie jar, never following redirects, so a test sees each answer as sent.
public struct CurlSession: Sendable {
    /// One answer.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: String

        /// The first value of header `name`.
        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    public var baseURL: String
    /// The cookie jar's file.
    public var jar: String

    public init(baseURL: String, jar: String) {
        self.baseURL = baseURL
        self.jar = jar
    }

    /// Sends `method path` with form fields, extra headers and optional HTTP Basic credentials.
    public func send(
        _ method: String, _ path: String, form: [(String, String)] = [], headers: [(String, String)] = [], body: String? = nil,
        user: String? = nil
    ) throws -> Answer {
        let headerFile = jar + ".headers-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: headerFile) }
        var arguments = ["-s", "-S", "--max-time", "30", "-X", method, "-b", jar, "-c", jar, "-D", headerFile, baseURL + path]
        for (name, value) in form { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        if let body { arguments += ["--data-binary", body] }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let user { arguments += ["-u", user] }
        let data = try ToolOutput.run("/usr/bin/curl", arguments).stdout
        let head = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let pairs: [(String, String)] = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Answer(status: status, headers: pairs, body: String(decoding: data, as: UTF8.self))
    }

    /// The value of hidden form field `name` in `html` (a page's CSRF token).
    public static func hiddenField(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
