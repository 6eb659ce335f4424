import Foundation

/// Checks and normalizes the web URLs items carry.
public enum WebURL {
    /// Whether `text` is an absolute http(s) URL with a host.
    public static func isHTTP(_ text: String) -> Bool {
        isPlainHTTP(text) || parsedIsHTTP(text)
    }

    /// ``isHTTP(_:)`` through URLComponents, for URLs ``isPlainHTTP(_:)`` cannot vouch for.
    static func parsedIsHTTP(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// The form used to recognize one page reached through two providers.
    ///
    /// Scheme and `www.` are folded, default ports, trailing slashes and `utm_*` tracking
    /// parameters dropped. The fragment is kept: a reply (`/t/1#r_2`) is not its topic.
    public static func canonical(_ text: String) -> String {
        isCanonical(text) ? text : parsedCanonical(text)
    }

    /// Whether `text` is plainly an absolute http(s) URL, judged on its bytes without parsing.
    ///
    /// That is: `http://` or `https://` in any case, a host of ASCII letters, digits, `-` and
    /// `.`, an optional port of up to five digits, then a path, query and fragment of the
    /// characters RFC 3986 lets them carry unescaped and well-formed `%` escapes. Most links
    /// are; false means "parse it", not "no" (``isHTTP(_:)`` asks URLComponents then).
    static func isPlainHTTP(_ text: String) -> Bool {
        let bytes = text.utf8
        var index = bytes.startIndex
        /// Steps over `expected` (lowercase letters match either case); whether it was there.
        func skip(_ expected: String) -> Bool {
            for wanted in expected.utf8 {
                guard index < bytes.endIndex else { return false }
                let byte = bytes[index]
                guard byte == wanted || (isLetter(byte) && byte | 0x20 == wanted) else { return false }
                index = bytes.index(after: index)
            }
            return true
        }
        guard skip("http") else { return false }
        _ = skip("s")
        guard skip("://") else { return false }
        let hostStart = index
        while index < bytes.endIndex, isLetter(bytes[index]) || isHostByte(bytes[index]) { index = bytes.index(after: index) }
        guard index > hostStart else { return false }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") {
            index = bytes.index(after: index)
            var port = 0
            var digits = 0
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 6 {
                port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index = bytes.index(after: index)
            }
            guard (1...5).contains(digits), port <= 65_535 else { return false }
        }
        // The authority ends here or it is not plain (user info, other host characters).
        guard
            index == bytes.endIndex || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
                || bytes[index] == UInt8(ascii: "#")
        else { return false }
        return tail(of: bytes, from: index) != nil
    }

    /// Whether `text` is already canonical, judged on its bytes without parsing.
    ///
    /// That is: https, a lowercase host without `www.` or port, a path not ending in `/`
    /// (unless it is `/`), no query, only characters a URL carries unescaped. Most item URLs
    /// are; any doubt answers false and the URL is parsed.
    static func isCanonical(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.starts(with: "https://".utf8) else { return false }
        var index = bytes.index(bytes.startIndex, offsetBy: 8)
        let hostStart = index
        while index < bytes.endIndex, isHostByte(bytes[index]) { index = bytes.index(after: index) }
        guard index > hostStart, index < bytes.endIndex, bytes[index] == UInt8(ascii: "/"),
            !bytes[hostStart...].starts(with: "www.".utf8)
        else { return false }
        let pathStart = index
        guard let tail = tail(of: bytes, from: pathStart), !tail.hasQuery else { return false }
        let pathLength = bytes.distance(from: pathStart, to: tail.pathEnd)
        return pathLength == 1 || bytes[bytes.index(before: tail.pathEnd)] != UInt8(ascii: "/")
    }

    /// Where the path starting at `start` ends (its first `?` or `#`, or the end) and whether
    /// a query follows, when path, query and fragment carry only what RFC 3986 lets them
    /// carry unescaped and well-formed `%` escapes; nil otherwise.
    static func tail(of bytes: String.UTF8View, from start: String.Index) -> (pathEnd: String.Index, hasQuery: Bool)? {
        var index = start
        var pathEnd: String.Index?
        var hasQuery = false
        var inFragment = false
        var escape = 0  // hex digits still expected after a %
        while index < bytes.endIndex {
            let byte = bytes[index]
            if escape > 0 {
                guard isHexDigit(byte) else { return nil }
                escape -= 1
            } else if byte == UInt8(ascii: "%") {
                escape = 2
            } else if byte == UInt8(ascii: "?") {
                // Only the first `?` before any `#` begins the query; later ones are its text.
                if pathEnd == nil {
                    pathEnd = index
                    hasQuery = true
                }
            } else if byte == UInt8(ascii: "#") {
                guard !inFragment else { return nil }
                inFragment = true
                if pathEnd == nil { pathEnd = index }
            } else if !isPathByte(byte) {
                return nil
            }
            index = bytes.index(after: index)
        }
        guard escape == 0 else { return nil }
        return (pathEnd ?? bytes.endIndex, hasQuery)
    }

    static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// Unreserved characters, sub-delimiters, `:`, `@` and `/` (RFC 3986 `pchar` and `/`).
    static func isPathByte(_ byte: UInt8) -> Bool {
        // A switch, not `"-._~…".utf8.contains(byte)`: the generic walk of a literal's view
        // cost ~250 instructions a byte, and every item's links come through here.
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// The canonical form through URLComponents, for URLs ``isCanonical(_:)`` cannot vouch for.
    static func parsedCanonical(_ text: String) -> String {
        guard var components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return text }
        let scheme = components.scheme?.lowercased() ?? "https"
        components.host = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.scheme = scheme == "http" ? "https" : scheme
        if components.path.count > 1, components.path.hasSuffix("/") {
            components.path.removeLast()
        } else if components.path.isEmpty {
            components.path = "/"
        }
        if let query = components.queryItems {
            let kept = query.filter { !$0.name.lowercased().hasPrefix("utm_") }
            components.queryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? text
    }
}
