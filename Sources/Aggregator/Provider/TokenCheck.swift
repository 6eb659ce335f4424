/// The cheapest authenticated request a provider type knows: it answers 2xx only for a
/// token the site accepts (`aggr providers --check`).
public struct TokenCheck: Sendable {
    /// Where the token travels.
    public enum Placement: Sendable {
        /// `Authorization: Bearer <token>`.
        case bearer
        /// A query parameter, as Gitee's `access_token`.
        case query(String)
    }

    /// The path below the API root, such as `/user`.
    public var path: String
    public var placement: Placement
    public var headers: [(String, String)]

    public init(path: String, placement: Placement = .bearer, headers: [(String, String)] = []) {
        self.path = path
        self.placement = placement
        self.headers = headers
    }
}
