import Foundation

/// One stored section of a provider, with its unread items.
public struct SectionSummary: Sendable, Equatable {
    public var provider: String
    public var key: String
    public var title: String
    public var unread: Int
    /// The newest unread item's publication time.
    public var newestUnread: Date?

    public init(provider: String, key: String, title: String, unread: Int = 0, newestUnread: Date? = nil) {
        self.provider = provider
        self.key = key
        self.title = title
        self.unread = unread
        self.newestUnread = newestUnread
    }
}
