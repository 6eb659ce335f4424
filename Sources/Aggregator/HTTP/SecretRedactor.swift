import Foundation

/// Removes credentials from URLs, section keys, headers and messages: the one redaction
/// applied wherever a URL or a section key is shown, exported, logged, recorded or stored.
///
/// It works on the text itself rather than through `URLComponents`, which gives up on URLs
/// it cannot parse (and would then hand the secret back unchanged).
public enum SecretRedactor {
    /// Query parameter names (lower-cased, without `-` and `_`) whose values are credentials.
    static let secretParameters: Set<String> = [
        "token", "accesstoken", "authtoken", "refreshtoken", "idtoken", "privatetoken", "apitoken", "sessiontoken",
        "key", "apikey", "accesskey", "secretkey", "privatekey", "appsecret", "clientsecret", "consumersecret", "secret",
        "password", "passwd", "pwd", "pass", "auth", "authorization", "sig", "signature", "sign", "session", "sessionid",
        "sid", "jwt", "credential", "credentials", "cookie",
    ]
    /// Name endings that mark a credential whatever comes before them (`github_token`, `x-api-key`).
    static let secretSuffixes = ["token", "secret", "password", "apikey", "accesskey", "privatekey"]

    /// Headers whose values are credentials.
    static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "private-token", "x-auth-token",
    ]

    public static let placeholder = "REDACTED"

    /// Whether a query parameter named `name` carries a credential (case-insensitive).
    public static func isSecretParameter<S: StringProtocol>(_ name: S) -> Bool {
        let decoded = name.removingPercentEncoding ?? String(name)
        let folded = String(decoded.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
        return secretParameters.contains(folded) || secretSuffixes.contains { folded.hasSuffix($0) }
    }

    /// `url` with any userinfo (`user:REDACTED@`, `REDACTED@`) and every credential parameter value
    /// (in the query and in the fragment) replaced by ``placeholder``.
    ///
    /// Also takes a section key (`url/https://host/feed?token=…`, `search/q?key=…`): its
    /// options are a query like any other.
    public static func redact(url: String) -> String {
        // Nothing to do without a query, a fragment or userinfo: the common case costs one scan.
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") })
        else { return url }
        var text = Substring(url)
        var result = ""
        // Userinfo: between "://" and the first "@" before the path.
        if let scheme = text.range(of: "://") {
            let authorityStart = scheme.upperBound
            let authorityEnd = text[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
                // `user:pass@` keeps the user name; a lone `name@` is often a token itself.
                let userinfo = text[authorityStart..<at]
                let user = userinfo.firstIndex(of: ":").map { userinfo[..<$0] + ":" } ?? ""
                result += text[..<authorityStart] + user + placeholder
                text = text[at...]
            }
        }
        guard let queryStart = text.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return result + text }
        result += text[...queryStart]
        result += redactParameters(text[text.index(after: queryStart)...])
        return result
    }

    /// A request body as shown to a person (a dry run): a form's credential fields
    /// (`token=`, `key=`, `password=`…) replaced, and any URL in other text redacted.
    public static func redact(body: String, contentType: String?) -> String {
        (contentType ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded")
            ? redactParameters(body[...]) : redactURLs(in: body)
    }

    /// `name=value` pairs separated by `&`, `;`, `?` or `#`, with credential values replaced.
    private static func redactParameters(_ text: Substring) -> String {
        var result = ""
        var rest = text
        while !rest.isEmpty {
            let end = rest.firstIndex { $0 == "&" || $0 == ";" || $0 == "#" || $0 == "?" } ?? rest.endIndex
            let pair = rest[..<end]
            if let equals = pair.firstIndex(of: "="), isSecretParameter(pair[..<equals]), pair.index(after: equals) < pair.endIndex {
                result += pair[...equals] + placeholder
            } else {
                result += pair
            }
            if end < rest.endIndex {
                result.append(rest[end])
                rest = rest[rest.index(after: end)...]
            } else {
                rest = rest[end...]
            }
        }
        return result
    }

    /// `text` with every URL in it (anything with `://` up to white space or a quote) redacted.
    public static func redactURLs(in text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            // Back up over the scheme letters, then run to the end of the URL.
            var start = scheme.lowerBound
            while start > rest.startIndex {
                let previous = rest.index(before: start)
                guard rest[previous].isLetter || rest[previous].isNumber || "+-.".contains(rest[previous]) else { break }
                start = previous
            }
            var end = rest[scheme.upperBound...].firstIndex { $0.isWhitespace || "\"'<>`".contains($0) } ?? rest.endIndex
            // Punctuation ending a sentence is not part of the URL ("… from http://h/f?key=K: …").
            while end > scheme.upperBound, ".,:;)]}".contains(rest[rest.index(before: end)]) { end = rest.index(before: end) }
            result += rest[..<start]
            result += redact(url: String(rest[start..<end]))
            rest = rest[end...]
        }
        return result + rest
    }

    /// Whether header `name` carries a credential.
    public static func isSecretHeader(_ name: String) -> Bool {
        secretHeaders.contains(name.lowercased())
    }

    /// `headers` with credential values replaced.
    public static func redact(headers: [(String, String)]) -> [(String, String)] {
        headers.map { isSecretHeader($0.0) ? ($0.0, placeholder) : $0 }
    }

    /// The credential values `request` carries: secret header values (and the token after a
    /// scheme such as `Bearer`), secret query parameter values and userinfo.
    public static func secretValues(of request: HTTPRequest) -> [String] {
        var values = request.headers.filter { isSecretHeader($0.0) }.map(\.1)
        values += values.compactMap { $0.split(separator: " ").last.map(String.init) }
        let components = URLComponents(string: request.url)
        values += (components?.queryItems ?? []).filter { isSecretParameter($0.name) }.compactMap(\.value)
        values += [components?.user, components?.password].compactMap { $0 }
        return values
    }

    /// The `scheme://host[:port]` of `url`, without user, path, query or fragment.
    ///
    /// This is how a URL whose path may itself be the secret (Discord's and Slack's webhooks)
    /// is shown. A URL without a scheme shows as ``placeholder``.
    public static func origin(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return placeholder }
        let authorityStart = scheme.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        var authority = url[authorityStart..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return url[..<authorityStart].lowercased() + authority.lowercased()
    }

    /// The path segments of `url` long enough to be a credential (Discord's
    /// `/api/webhooks/<id>/<token>`, Slack's `/services/T…/B…/<secret>`).
    public static func pathSecrets(of url: String) -> [String] {
        guard let scheme = url.range(of: "://") else { return [] }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return [] }
        let end = rest[slash...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        return rest[slash..<end].split(separator: "/").map(String.init).filter { $0.count >= 8 }
    }

    /// `text` with every occurrence of each of `secrets` replaced, and every URL in it
    /// redacted (for bodies and messages).
    public static func redact(text: String, secrets: [String]) -> String {
        let scrubbed = secrets.filter { $0.count >= 4 }.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
        return redactURLs(in: scrubbed)
    }
}
