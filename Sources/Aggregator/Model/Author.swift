/// Who wrote an item, as the upstream site names them.
public struct Author: Sendable, Hashable, Codable {
    /// The display name or login.
    public var name: String
    /// The author's page on the upstream site, when known.
    public var url: String?

    public init(name: String, url: String? = nil) {
        self.name = name
        self.url = url
    }
}
