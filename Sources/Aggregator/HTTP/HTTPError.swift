/// Why an HTTP exchange failed.
///
/// Every URL in it is already redacted of secrets.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    case dns(host: String, url: String)
    case connect(url: String, detail: String)
    case tls(url: String, detail: String)
    case timeout(url: String, seconds: Int)
    case tooLarge(url: String, limit: Int)
    case tooManyRedirects(url: String, limit: Int)
    /// A redirect to something other than http(s), refused.
    case forbiddenRedirect(url: String)
    /// The connection broke mid-exchange (reset, empty reply, truncated body).
    case transport(url: String, detail: String)
    /// An answer that is not 2xx or 304; `excerpt` is a short sanitized piece of the body.
    case status(url: String, code: Int, excerpt: String)
    /// A `--replay` directory has no recording for this request.
    case notRecorded(url: String)

    public var description: String {
        switch self {
        case .dns(let host, let url): localized("cannot resolve host \(host) (\(url))")
        case .connect(let url, let detail): localized("cannot connect to \(url): \(detail)")
        case .tls(let url, let detail): localized("TLS failure for \(url): \(detail)")
        case .timeout(let url, let seconds): localized("no complete answer from \(url) within \(seconds) s")
        case .tooLarge(let url, let limit): localized("response from \(url) is larger than \(limit / 1_048_576) MiB")
        case .tooManyRedirects(let url, let limit): localized("more than \(limit) redirects from \(url)")
        case .forbiddenRedirect(let url): localized("\(url) redirected to a non-HTTP URL; refused")
        case .transport(let url, let detail): localized("connection to \(url) failed: \(detail)")
        case .status(let url, let code, let excerpt): localized("HTTP \(code) from \(url)") + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .notRecorded(let url): localized("no recording for \(url) in the replay directory")
        }
    }

    /// The HTTP status, when the failure is one.
    public var statusCode: Int? {
        if case .status(_, let code, _) = self { return code }
        return nil
    }
}
