/// Where a site's API wants the token: the one place a request gains its credential, for
/// fetches and for `aggr providers --check` alike.
public enum TokenPlacement: Sendable {
    /// `Authorization: Bearer <token>`.
    case bearer
    /// A query parameter, as Gitee's `access_token` (redacted wherever the URL is shown).
    case query(String)

    /// `url` and `headers` carrying `token`; unchanged when there is no token.
    public func authorize(_ url: String, headers: [(String, String)], token: String?) -> (url: String, headers: [(String, String)]) {
        guard let token else { return (url, headers) }
        switch self {
        case .bearer:
            return (url, headers + [("Authorization", "Bearer \(token)")])
        case .query(let name):
            return (url + (url.contains("?") ? "&" : "?") + "\(name)=\(PercentEncoding.component(token))", headers)
        }
    }
}
