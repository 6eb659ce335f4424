import Aggregator
import Foundation

/// A Google Reader stream id, as reader apps name what to list: the reading list, the
/// starred or read items, one subscription (a provider's section), or a label (a view or a
/// provider).
enum ReaderStream: Equatable {
    case readingList
    case starred
    case read
    case subscription(provider: String, section: String)
    case label(String)

    static let readingListID = "user/-/state/com.google/reading-list"
    static let starredID = "user/-/state/com.google/starred"
    static let readID = "user/-/state/com.google/read"
    static let keptUnreadID = "user/-/state/com.google/kept-unread"

    /// Parses `text`, or nil when it names no stream.
    ///
    /// `user/<anything>/` means this (only) user.
    init?(_ text: String) {
        let id = Self.normalized(text)
        switch id {
        case Self.readingListID: self = .readingList
        case Self.starredID: self = .starred
        case Self.readID: self = .read
        default:
            if id.hasPrefix("feed/") {
                let rest = id.dropFirst(5)
                guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex else { return nil }
                self = .subscription(provider: String(rest[..<slash]), section: String(rest[rest.index(after: slash)...]))
            } else if id.hasPrefix("user/-/label/"), id.count > 13 {
                self = .label(String(id.dropFirst(13)))
            } else {
                return nil
            }
        }
    }

    /// `user/1/state/…` and `user/1234/label/…` as `user/-/…`.
    static func normalized(_ text: String) -> String {
        guard text.hasPrefix("user/") else { return text }
        let rest = text.dropFirst(5)
        guard let slash = rest.firstIndex(of: "/") else { return text }
        return "user/-" + rest[slash...]
    }

    var id: String {
        switch self {
        case .readingList: Self.readingListID
        case .starred: Self.starredID
        case .read: Self.readID
        case .subscription(let provider, let section): Self.subscriptionID(provider: provider, section: section)
        case .label(let name): "user/-/label/\(name)"
        }
    }

    static func subscriptionID(provider: String, section: String) -> String { "feed/\(provider)/\(section)" }

    /// The items this stream lists in `session`, or nil when it names nothing.
    ///
    /// Only subscriptions count: a stream across providers leaves out the items of
    /// providers no longer in providers.json (kept until `aggr prune --orphans`), as
    /// `unread-count` does, so counts and lists agree (FreshRSS deletes a removed feed's items).
    func query(in session: LibrarySession) -> TimelineQuery? {
        let configuration = session.configuration
        guard let tab = tab(in: configuration), var query = try? session.query(for: tab) else { return nil }
        // No provider is named "": with none configured, nothing is a subscription.
        if query.providers.isEmpty { query.providers = configuration.providers.isEmpty ? [""] : configuration.providers.map(\.id) }
        return query
    }

    /// The tab listing this stream: a label is a view, else a provider (a folder), else the
    /// items a user put that label on.
    func tab(in configuration: Configuration) -> TimelineTab? {
        switch self {
        case .readingList: return .all
        case .starred: return .saved
        case .read: return .read
        case .subscription(let provider, let section): return .section(provider: provider, key: section)
        case .label(let name):
            if configuration.views.contains(where: { $0.name == name && $0.filter != nil }) { return .view(name) }
            return configuration.provider(id: name) != nil ? .provider(name) : .labelled(name)
        }
    }
}

/// Item ids in the three forms reader apps send: decimal (`42`), the long form
/// (`tag:google.com,2005:reader/item/000000000000002a`) and bare hex (`000000000000002a`).
enum ReaderItemID {
    // verbatim: the Google Reader item id prefix
    static let prefix = "tag:google.com,2005:reader/item/"

    /// `timestampUsec` of an item published at `date`: one formula for the id list and the
    /// contents, so an app matching the two finds the same value.
    static func timestamp(_ date: Date) -> String {
        String(Int64(date.timeIntervalSince1970 * 1_000_000))
    }

    /// The long form of item `ref`.
    static func long(_ ref: Int64) -> String {
        prefix + String(format: "%016llx", UInt64(bitPattern: ref))
    }

    /// The item number `text` names, or nil when it is none of the forms.
    static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix(prefix) {
            let hex = trimmed.dropFirst(prefix.count)
            guard !hex.isEmpty, hex.count <= 16, let value = UInt64(hex, radix: 16) else { return nil }
            return Int64(bitPattern: value)
        }
        if !trimmed.isEmpty, trimmed.count <= 19, trimmed.allSatisfy(\.isASCII), let value = Int64(trimmed), value > 0 { return value }
        // Sixteen hex digits without the prefix (some apps shorten it).
        if trimmed.count == 16, let value = UInt64(trimmed, radix: 16) { return Int64(bitPattern: value) }
        return nil
    }
}
