/// What the article extractor found on a page: the article as safe HTML and what the page
/// says about it.
public struct Article: Sendable, Equatable {
    public var title: String
    public var byline: String?
    /// The page's language (`<html lang>`), when it says.
    public var language: String?
    /// `rtl` or `ltr` when the page or the article's container says.
    public var direction: String?
    /// The page's lead image (`og:image`), absolute.
    public var leadImage: String?
    public var excerpt: String?
    public var siteName: String?
    /// The article as allowlist-sanitized HTML, URLs absolute.
    public var content: String
    /// The article's text, whitespace collapsed.
    public var text: String

    public init(
        title: String, byline: String? = nil, language: String? = nil, direction: String? = nil, leadImage: String? = nil,
        excerpt: String? = nil, siteName: String? = nil, content: String, text: String
    ) {
        self.title = title
        self.byline = byline
        self.language = language
        self.direction = direction
        self.leadImage = leadImage
        self.excerpt = excerpt
        self.siteName = siteName
        self.content = content
        self.text = text
    }
}
