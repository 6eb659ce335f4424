/// One page of the timeline and where the next one starts.
public struct TimelinePage: Sendable {
    public var items: [StoredItem]
    /// Set when more items follow.
    public var nextCursor: TimelineCursor?

    public init(items: [StoredItem], nextCursor: TimelineCursor? = nil) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
