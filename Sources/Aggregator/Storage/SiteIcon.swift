import Foundation

/// A site's icon as aggr keeps it: the image (PNG, GIF, JPEG, ICO or WebP, checked by its
/// bytes), or the fact that the site has none, and when that was learned.
public struct SiteIcon: Sendable, Equatable {
    /// The site's origin (`https://www.v2ex.com`).
    public var site: String
    /// The image's media type; nil when the site has no usable icon.
    public var contentType: String?
    /// The image bytes; empty when the site has none.
    public var data: [UInt8]
    public var fetchedAt: Date

    public init(site: String, contentType: String?, data: [UInt8], fetchedAt: Date) {
        self.site = site
        self.contentType = contentType
        self.data = data
        self.fetchedAt = fetchedAt
    }

    /// Whether there is an image to serve.
    public var hasImage: Bool { contentType != nil && !data.isEmpty }
}
