import Foundation

/// One entry of the unified timeline, as a provider produced it.
///
/// `id` is the stable upstream identifier, unique within one provider instance; seeing the
/// same id again updates the stored item instead of adding another.
public struct Item: Sendable, Hashable {
    /// The provider instance id from providers.json (not the type name).
    public var provider: String
    /// The section key the item was fetched through, such as `node/swift`.
    public var section: String
    public var id: String
    public var kind: ItemKind
    public var title: String
    /// The canonical web page of the item, never an API URL.
    public var url: String
    public var author: Author?
    /// Plain text, already stripped of markup.
    public var summary: String
    /// Optional HTML or text body.
    public var content: String?
    public var published: Date
    public var updated: Date?
    public var tags: [String]
    public var metrics: Metrics
    public var image: String?
    /// Small string facts such as node, repo or language.
    public var extra: [String: String]

    public init(
        provider: String, section: String, id: String, kind: ItemKind, title: String,
        url: String, author: Author? = nil, summary: String = "", content: String? = nil,
        published: Date, updated: Date? = nil, tags: [String] = [], metrics: Metrics = Metrics(),
        image: String? = nil, extra: [String: String] = [:]
    ) {
        self.provider = provider
        self.section = section
        self.id = id
        self.kind = kind
        self.title = title
        self.url = url
        self.author = author
        self.summary = summary
        self.content = content
        self.published = published
        self.updated = updated
        self.tags = tags
        self.metrics = metrics
        self.image = image
        self.extra = extra
    }
}
