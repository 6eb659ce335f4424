import Foundation

/// An item as the store holds it: the item plus what aggr itself knows about it.
public struct StoredItem: Sendable, Hashable {
    /// A short number that names the item in this database (`aggr show 42`).
    public var ref: Int64
    public var item: Item
    /// When aggr first stored the item.
    public var firstSeen: Date
    /// When the user marked the item read, if they did.
    public var readAt: Date?
    /// The title of the item's section, when the store knows it.
    public var sectionTitle: String?
    /// When the user saved (starred) the item, if they did; saved items outlive retention.
    public var savedAt: Date?

    public init(ref: Int64, item: Item, firstSeen: Date, readAt: Date? = nil, sectionTitle: String? = nil, savedAt: Date? = nil) {
        self.ref = ref
        self.item = item
        self.firstSeen = firstSeen
        self.readAt = readAt
        self.sectionTitle = sectionTitle
        self.savedAt = savedAt
    }

    /// Whether the user has not read the item yet.
    public var isUnread: Bool { readAt == nil }

    /// Whether the user saved the item.
    public var isSaved: Bool { savedAt != nil }
}
