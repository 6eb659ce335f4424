/// A named stream of items within one provider, such as a V2EX node or a repository's releases.
public struct Section: Sendable, Hashable {
    /// The provider instance id this section belongs to.
    public var provider: String
    /// The section key as written in providers.json, such as `node/swift`.
    public var key: String
    /// A human title such as "V2EX › Swift".
    public var title: String

    public init(provider: String, key: String, title: String) {
        self.provider = provider
        self.key = key
        self.title = title
    }
}
