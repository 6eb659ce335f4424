import Foundation

/// A part of the timeline a front end lists: a configured view, everything, one provider,
/// one of its sections, the saved or read items, or the items carrying a user's label.
///
/// The web's tabs, the reader's tabs and the Google Reader API's streams are all tabs; the
/// library session turns one into its query (``LibrarySession/query(for:filter:)``).
public enum TimelineTab: Hashable, Sendable {
    case all
    case view(String)
    case provider(String)
    case section(provider: String, key: String)
    case saved
    case read
    /// Items a user put this label on (``LibrarySession/setLabel(_:on:_:)``).
    case labelled(String)

    /// The name a tab strip shows.
    public var label: String {
        switch self {
        case .all: localized("All", context: "tab")
        case .view(let name): name
        case .provider(let id): id
        case .section(let provider, let key): "\(provider) \(key)"
        case .saved: localized("Saved", context: "tab")
        case .read: localized("Read", context: "tab")
        case .labelled(let name): name
        }
    }

    /// The tabs `configuration` offers, in order: its views (those with a filter), All, then
    /// each provider.
    public static func strip(of configuration: Configuration) -> [TimelineTab] {
        configuration.views.filter { $0.filter != nil }.map { .view($0.name) } + [.all]
            + configuration.providers.map { .provider($0.id) }
    }
}

/// A tab that names no view or provider of the config in force.
public struct UnknownTabError: Error, Sendable, Equatable, CustomStringConvertible {
    public var tab: TimelineTab
    /// The config file it was looked up in.
    public var file: String

    public var description: String { localized("\(tab.label) is not in \(file)") }
}
