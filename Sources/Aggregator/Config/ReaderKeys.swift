/// What a key does in `aggr tui`.
public enum ReaderAction: String, Sendable, CaseIterable {
    case down, up, top, bottom
    case pageDown = "page-down"
    case pageUp = "page-up"
    case open, back
    case nextTab = "next-tab"
    case previousTab = "previous-tab"
    case search, filter
    case toggleRead = "toggle-read"
    case toggleSaved = "toggle-saved"
    case markTabRead = "mark-tab-read"
    case openBrowser = "open-browser"
    case copyURL = "copy-url"
    case refresh, help
    /// Acting upstream on the item: reply (in $EDITOR), thank, favourite, like, star, react.
    case reply, thank, favourite, like, star, react
    /// The article of the item's page (full text), read once and kept.
    case fullText = "full-text"

    /// The upstream action this key action performs, if it is one.
    public var upstream: ItemAction? {
        switch self {
        case .reply: .reply
        case .thank: .thank
        case .favourite: .favourite
        case .like: .like
        case .star: .star
        case .react: .react
        default: nil
        }
    }
}

/// The keys of `aggr tui`.
///
/// Vim-style defaults, remapped by providers.json's `keys` object (`{"toggle-read": "m"}`).
/// A key is one character (`x`, `G`, `/`), `ctrl-<letter>`,
/// or one of `enter`, `esc`, `tab`, `shift-tab`, `space`, `up`, `down`, `left`, `right`,
/// `pgup`, `pgdn`, `home`, `end`, `backspace`.
public struct ReaderKeys: Sendable, Equatable {
    /// Action → the keys that trigger it.
    public private(set) var bindings: [ReaderAction: [String]]

    public static let defaults: [ReaderAction: [String]] = [
        .down: ["j", "down"], .up: ["k", "up"], .top: ["g", "home"], .bottom: ["G", "end"], .pageDown: ["ctrl-d", "pgdn", "space"],
        .pageUp: ["ctrl-u", "pgup"], .open: ["enter", "l", "right"], .back: ["q", "esc", "h", "left"], .nextTab: ["tab"],
        .previousTab: ["shift-tab"], .search: ["/"], .filter: ["f"], .toggleRead: ["r"], .toggleSaved: ["s"], .markTabRead: ["A"],
        .openBrowser: ["o"], .copyURL: ["y"], .refresh: ["R"], .help: ["?"], .reply: ["c"], .thank: ["t"], .favourite: ["F"],
        .like: ["L"], .star: ["S"], .react: ["+"], .fullText: ["x"],
    ]

    static let namedKeys: Set<String> = [
        "enter", "esc", "tab", "shift-tab", "space", "up", "down", "left", "right", "pgup", "pgdn", "home", "end", "backspace",
    ]

    public init(overrides: [ReaderAction: String] = [:]) {
        var bindings = Self.defaults
        for (action, key) in overrides {
            // The key leaves whatever action had it, then becomes this action's only key.
            for other in bindings.keys { bindings[other]?.removeAll { $0 == key } }
            bindings[action] = [key]
        }
        self.bindings = bindings
    }

    /// The action `key` triggers, if any.
    public func action(for key: String) -> ReaderAction? {
        bindings.first { $0.value.contains(key) }?.key
    }

    /// Whether `name` is a key this mapping understands.
    public static func isKeyName(_ name: String) -> Bool {
        if name.count == 1, let scalar = name.unicodeScalars.first, scalar.value >= 0x21, scalar.value < 0x7F { return true }
        if name.hasPrefix("ctrl-"), name.count == 6, let letter = name.last, letter.isASCII, letter.isLowercase { return true }
        return namedKeys.contains(name)
    }
}

extension ConfigReader {
    /// The `keys` object.
    func readerKeys(_ value: JSONValue) throws(ConfigError) -> ReaderKeys {
        let actions = ReaderAction.allCases.map(\.rawValue)
        var overrides: [ReaderAction: String] = [:]
        var used: [String: String] = [:]
        for member in try members(value, at: "keys", allowed: actions) {
            let path = "keys.\(member.key)"
            let key = try string(member.value, at: path)
            guard ReaderKeys.isKeyName(key) else {
                throw fail(
                    path, "\"\(key)\" is not a key (one character, ctrl-<letter>, enter, esc, tab, shift-tab, space, up, down, pgup, pgdn…)"
                )
            }
            if let other = used[key] { throw fail(path, localized("\"\(key)\" is already bound to \(other)")) }
            used[key] = member.key
            if let action = ReaderAction(rawValue: member.key) { overrides[action] = key }
        }
        return ReaderKeys(overrides: overrides)
    }
}
