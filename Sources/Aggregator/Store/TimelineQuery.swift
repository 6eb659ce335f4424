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
    public var limit = 40
    /// Zero-based page number, for `--page`; ignored when `cursor` is set.
    public var page = 0
    /// Continue after this position (keyset paging; stable while new items arrive).
    public var cursor: TimelineCursor?
    /// Only items numbered (``StoredItem/ref``) above this: those stored since.
    public var storedAfter: Int64?
    /// Only items numbered at most this.
    public var storedThrough: Int64?
    /// Show one item per canonical URL across providers.
    public var dedupe = true
    /// Filters every item must match (a view, `--where`); the Store compiles them.
    public var filters: [FilterExpression] = []
    /// Config rules that hide items; nil shows everything (`--all`).
    public var hiding: HidingRules?
    /// The moment ages are measured from (`age < 2d`).
    public var now = Date()
    /// Conditions already compiled (the library's own callers and tests).
    var conditions: [FilterSQL] = []

    /// Every condition of the query as SQL.
    func compiledConditions() -> [FilterSQL] {
        (hiding?.conditions(now: now) ?? []) + filters.map { FilterSQL.compile($0, now: now) } + conditions
    }

    public init() {}
}

/// A position in the timeline order (published descending, then provider, then id).
public struct TimelineCursor: Sendable, Equatable, CustomStringConvertible {
    public var published: Int64
    public var provider: String
    public var id: String

    public init(published: Int64, provider: String, id: String) {
        self.published = published
        self.provider = provider
        self.id = id
    }

    /// The cursor of `stored`: the next page starts after it.
    public init(after stored: StoredItem) {
        self.init(published: Store.millis(stored.item.published), provider: stored.item.provider, id: stored.item.id)
    }

    /// An opaque token safe to paste into a shell: `<millis>.<base64url(provider NUL id)>`.
    public var description: String {
        let payload = Data((provider + "\u{0}" + id).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "\(published).\(payload)"
    }

    /// Parses a token made by ``description``.
    public init?(token: String) {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let published = Int64(parts[0]) else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let fields = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard fields.count == 2 else { return nil }
        self.init(published: published, provider: String(fields[0]), id: String(fields[1]))
    }
}

/// One page of the timeline and where the next one starts.
public struct TimelinePage: Sendable {
    public var items: [StoredItem]
    /// Set when more items follow.
    public var nextCursor: TimelineCursor?
}
