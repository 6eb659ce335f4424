/// HTTP cache validators remembered for one URL, with a hash of the body they belong to.
public struct HTTPValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?
    /// Lets a 200 with the very same body count as unchanged, for servers without validators.
    public var bodyHash: String?

    public init(etag: String?, lastModified: String?, bodyHash: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.bodyHash = bodyHash
    }
}
