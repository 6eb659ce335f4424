import Foundation

/// One page of a listing as positions only: each item's number and place in the order, and
/// where the next page starts.
///
/// A reader app's id list (`stream/items/ids`) needs no more than this; reading whole rows
/// for it cost as much as the rest of the request.
public struct TimelinePositions: Sendable, Equatable {
    /// The items of the page, in the query's order.
    public var positions: [TimelinePosition]
    /// Set when more items follow.
    public var nextCursor: TimelineCursor?

    public init(positions: [TimelinePosition], nextCursor: TimelineCursor? = nil) {
        self.positions = positions
        self.nextCursor = nextCursor
    }

    /// The page of `rows` (one past the page when more follow) for `query`, as a backend
    /// read them.
    package init(rows: [TimelinePosition], query: TimelineQuery) {
        positions = Array(rows.prefix(query.limit))
        nextCursor = rows.count > query.limit && !query.byNumber ? positions.last?.cursor : nil
    }
}

/// One item's number and its place in the timeline order.
public struct TimelinePosition: Sendable, Equatable {
    /// The item's number.
    public var ref: Int64
    /// The item's place: publication time (milliseconds), provider and id.
    public var cursor: TimelineCursor

    public init(ref: Int64, cursor: TimelineCursor) {
        self.ref = ref
        self.cursor = cursor
    }

    /// When the item was published, as ``StoredItem``'s item carries it.
    public var published: Date { EpochMillis.date(cursor.published) }
}
