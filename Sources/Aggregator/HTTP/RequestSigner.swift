internal import COpenSSL
import Foundation

/// Signs a request the way many campus and enterprise APIs want it: the query parameters
/// (and a timestamp) sorted by name and joined as `k=v&…`, then an HMAC of that with the
/// secret as key — or, for the plain digests, a digest of that with the secret appended —
/// added as a query parameter or a header.
///
/// The canonical string and the secret are never part of an error or a log line; the
/// signature parameter is redacted like any credential (``SecretRedactor``).
public struct RequestSigner: Sendable {
    /// The lowercase hex HMAC-SHA256 of `message` keyed with `key` (webhook signatures, the
    /// tokens `aggr serve` derives).
    public static func hmacSHA256(_ message: [UInt8], key: String) -> String {
        encode(compute(AGGR_DIGEST_SHA256, key: Array(key.utf8), message: message), as: .hex)
    }

    /// The digest computed over the canonical string.
    public enum Algorithm: String, Sendable, CaseIterable {
        case hmacSHA256 = "hmac-sha256", hmacSHA1 = "hmac-sha1", sha1, md5
    }

    /// How the signature bytes are written.
    public enum Encoding: String, Sendable, CaseIterable {
        case hex, base64
    }

    public var algorithm: Algorithm
    public var secret: String
    /// The query parameter that carries the signature (`sign`), unless ``header`` is set.
    public var parameter: String
    /// A parameter set to the current Unix time before signing (`t`), if any.
    public var timestampParameter: String?
    /// The parameters that enter the signature; nil signs every query parameter.
    public var include: [String]?
    public var encoding: Encoding
    /// A header that carries the signature instead of a query parameter.
    public var header: String?

    public init(
        algorithm: Algorithm, secret: String, parameter: String = "sign", timestampParameter: String? = nil, include: [String]? = nil,
        encoding: Encoding = .hex, header: String? = nil
    ) {
        self.algorithm = algorithm
        self.secret = secret
        self.parameter = parameter
        self.timestampParameter = timestampParameter
        self.include = include
        self.encoding = encoding
        self.header = header
    }

    /// `url` with the timestamp and the signature added, and the headers to send.
    public func sign(url: String, now: Date) -> (url: String, headers: [(String, String)]) {
        guard var components = URLComponents(string: url) else { return (url, []) }
        var items = components.queryItems ?? []
        if let timestampParameter {
            items.removeAll { $0.name == timestampParameter }
            items.append(URLQueryItem(name: timestampParameter, value: String(Int(now.timeIntervalSince1970))))
        }
        let signed = items.filter { item in
            item.name == timestampParameter || include.map { $0.contains(item.name) } ?? true
        }
        let signature = Self.encode(digest(of: Self.canonical(signed.map { ($0.name, $0.value ?? "") })), as: encoding)
        if let header {
            components.queryItems = items
            return (components.string ?? url, [(header, signature)])
        }
        items.append(URLQueryItem(name: parameter, value: signature))
        components.percentEncodedQuery = items.map { "\(PercentEncoding.component($0.name))=\(PercentEncoding.component($0.value ?? ""))" }
            .joined(separator: "&")
        return (components.string ?? url, [])
    }

    /// `k=v&…` over `pairs` sorted by name (then value), as the server recomputes it.
    public static func canonical(_ pairs: [(String, String)]) -> String {
        pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The signature bytes of `canonical` (empty if libcrypto cannot be loaded).
    public func digest(of canonical: String) -> [UInt8] {
        switch algorithm {
        case .hmacSHA256: Self.compute(AGGR_DIGEST_SHA256, key: Array(secret.utf8), message: Array(canonical.utf8))
        case .hmacSHA1: Self.compute(AGGR_DIGEST_SHA1, key: Array(secret.utf8), message: Array(canonical.utf8))
        case .sha1: Self.compute(AGGR_DIGEST_SHA1, key: nil, message: Array((canonical + secret).utf8))
        case .md5: Self.compute(AGGR_DIGEST_MD5, key: nil, message: Array((canonical + secret).utf8))
        }
    }

    /// The MD5 of `text` as lower-case hex (a Fever app's `api_key`); empty if libcrypto
    /// cannot be loaded.
    public static func md5Hex(_ text: String) -> String {
        compute(AGGR_DIGEST_MD5, key: nil, message: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of `text` as lower-case hex (how a browser session's cookie is kept).
    public static func sha256Hex(_ text: String) -> String {
        encode(compute(AGGR_DIGEST_SHA256, key: nil, message: Array(text.utf8)), as: .hex)
    }

    /// An HMAC keyed with `key`, or the plain digest when `key` is nil.
    static func compute(_ digest: aggr_digest, key: [UInt8]?, message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 64)
        let length =
            if let key {
                aggr_digest_compute(digest, key, key.count, message, message.count, &output)
            } else {
                aggr_digest_compute(digest, nil, 0, message, message.count, &output)
            }
        return Array(output.prefix(length))
    }

    static func encode(_ bytes: [UInt8], as encoding: Encoding) -> String {
        switch encoding {
        case .hex: bytes.map { String(format: "%02x", $0) }.joined()
        case .base64: Data(bytes).base64EncodedString()
        }
    }
}
