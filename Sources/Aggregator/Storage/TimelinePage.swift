/// One page of the timeline and where the next one starts.
public struct TimelinePage: Sendable {
    public var items: [StoredItem]
    /// Set when more items follow.
    public var nextCursor: TimelineCursor?
}
