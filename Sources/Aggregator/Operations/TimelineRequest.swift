import Foundation

/// A timeline page as a front end asks for it, in the words a person typed.
///
/// A view, a filter, kinds, "since 7d", a cursor token: ``query(configuration:now:)`` checks
/// them and turns them into the ``TimelineQuery`` the Store answers.
public struct TimelineRequest: Sendable {
    /// Why the request names no page; the message says which part and what was expected.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownKind(String)
        case invalidSince(String)
        case invalidCursor(String)
        case selection(ItemSelection.Failure)

        public var description: String {
            switch self {
            case .unknownKind(let name):
                localized("unknown kind \"\(name)\" (valid: \(ItemKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            case .invalidSince(let text): localized("\"\(text)\" is neither a duration (24h, 7d) nor a date (2026-11-01)")
            case .invalidCursor(let token): localized("\"\(token)\" is not a cursor printed by aggr timeline")
            case .selection(let failure): failure.description
            }
        }
    }

    public var view: String?
    /// A filter-language expression.
    public var expression: String?
    /// Also show what the config's include/exclude rules hide.
    public var showHidden = false
    public var providers: [String] = []
    public var sections: [String] = []
    /// Kind names (`release`, `topic`, …).
    public var kinds: [String] = []
    /// A duration (`24h`) or a date (`2026-11-01`).
    public var since: String?
    public var unreadOnly = false
    public var savedOnly = false
    /// A token printed after a full page.
    public var cursor: String?
    /// Items per page; nil takes `timeline.limit` from the config, else 40.
    public var limit: Int?
    /// Zero-based page number, ignored with a cursor.
    public var page = 0
    public var dedupe = true

    public init() {}

    /// The checked query.
    public func query(configuration: Configuration?, now: Date) throws(Failure) -> TimelineQuery {
        var query = TimelineQuery()
        query.now = now
        query.limit = limit ?? configuration?.timeline.limit ?? 40
        query.page = page
        query.providers = providers
        query.sections = sections
        query.kinds = try Self.kinds(kinds)
        if let since { query.since = try Self.since(since, now: now) }
        if let cursor {
            guard let parsed = TimelineCursor(token: cursor) else { throw .invalidCursor(cursor) }
            query.cursor = parsed
        }
        query.unreadOnly = unreadOnly
        query.savedOnly = savedOnly
        query.dedupe = dedupe
        do {
            return try ItemSelection(configuration: configuration, view: view, expression: expression, showHidden: showHidden)
                .applied(to: query)
        } catch {
            throw .selection(error)
        }
    }

    /// Kind names as kinds.
    public static func kinds(_ names: [String]) throws(Failure) -> [ItemKind] {
        var kinds: [ItemKind] = []
        for name in names {
            guard let kind = ItemKind(rawValue: name) else { throw .unknownKind(name) }
            kinds.append(kind)
        }
        return kinds
    }

    /// `24h` means the last 24 hours; `2026-11-01` means since that date (UTC).
    public static func since(_ text: String, now: Date) throws(Failure) -> Date {
        if let span = TimeSpan(parsing: text) { return now.addingTimeInterval(-Double(span.seconds)) }
        if let date = ISOTimestamp.parse(text) { return date }
        throw .invalidSince(text)
    }
}
