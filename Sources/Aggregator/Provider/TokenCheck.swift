/// The cheapest authenticated request a provider type knows: it answers 2xx only for a
/// token the site accepts (`aggr providers --check`).
public struct TokenCheck: Sendable {
    /// The path below the API root, such as `/user`.
    public var path: String
    public var placement: TokenPlacement
    public var headers: [(String, String)]

    public init(path: String, placement: TokenPlacement = .bearer, headers: [(String, String)] = []) {
        self.path = path
        self.placement = placement
        self.headers = headers
    }
}
