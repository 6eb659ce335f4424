import Foundation

/// What part of the timeline to read: filters, page size and position.
public struct TimelineQuery: Sendable, Equatable {
    /// Provider instance ids to include; empty means all.
    public var providers: [String] = []
    /// Section keys to include; empty means all.
    public var sections: [String] = []
    public var kinds: [ItemKind] = []
    /// Only items published at or after this moment.
    public var since: Date?
    public var unreadOnly = false
    /// Only items read already.
    public var readOnly = false
    /// Only items published at or before this moment.
    public var before: Date?
    /// Oldest first instead of newest first (the cursor then walks forward in time).
    public var oldestFirst = false
    /// Only saved (starred) items.
    public var savedOnly = false
    /// Only items not saved (a reader app's `xt=…/starred`).
    public var unsavedOnly = false
    public var limit = 40
    /// Zero-based page number, for `--page`; ignored when `cursor` is set.
    public var page = 0
    /// Continue after this position (keyset paging; stable while new items arrive).
    public var cursor: TimelineCursor?
    /// Only items first stored at or after this moment, whatever their publication time
    /// (a reader app's `ot`: "what reached the server since my last sync").
    public var storedSince: Date?
    /// Only items first stored before this moment.
    public var storedBefore: Date?
    /// Only items carrying one of these user labels; empty means any item.
    public var labels: [String] = []
    /// Only items numbered (``StoredItem/ref``) above this: those stored since.
    public var storedAfter: Int64?
    /// Only items numbered at most this.
    public var storedThrough: Int64?
    /// In item-number order (the order items reached aggr: ``StoredItem/ref``) instead of
    /// publication order, as Fever apps page by `since_id`/`max_id`; the cursor is ignored.
    public var byNumber = false
    /// Show one item per canonical URL across providers.
    public var dedupe = true
    /// Filters every item must match (a view, `--where`); the Store compiles them.
    public var filters: [FilterExpression] = []
    /// Config rules that hide items; nil shows everything (`--all`).
    public var hiding: HidingRules?
    /// The moment ages are measured from (`age < 2d`).
    public var now = Date()
    public init() {}
}
