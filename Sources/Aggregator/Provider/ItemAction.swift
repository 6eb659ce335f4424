import Foundation

/// Something a user does upstream: answer an item, thank it, keep it, like it, star its
/// repository, react to it, or claim a site's daily reward.
public enum ItemAction: String, Sendable, CaseIterable, Hashable {
    case reply, thank, favourite, like, star, react, checkin

    /// What the reader did to the item, in the current language: `you favourited`.
    public var doneByYou: String {
        switch self {
        case .reply: localized("you replied")
        case .thank: localized("you thanked")
        case .favourite: localized("you favourited")
        case .like: localized("you liked")
        case .star: localized("you starred")
        case .react: localized("you reacted")
        case .checkin: localized("you checked in")
        }
    }

    /// The state an item keeps after the action (`favourited`): a word of the stored record.
    public var doneState: String {
        switch self {
        case .reply: "replied"
        case .thank: "thanked"
        case .favourite: "favourited"
        case .like: "liked"
        case .star: "starred"
        case .react: "reacted"
        case .checkin: "checked in"  // verbatim: a stored state word; doneByYou is what people read
        }
    }
}

/// What a provider's site needs before it accepts an action.
public enum ActionCredential: String, Sendable {
    /// A signed-in browser session (`cookie_env`).
    case cookie
    /// An API token (`token_env`).
    case token
}

/// One action a provider type performs: on which kinds of item, with what credential, and
/// whether front ends must ask first.
public struct ActionSupport: Sendable {
    public var action: ItemAction
    /// The kinds of item it applies to; empty for an action on the site itself (check-in).
    public var kinds: [ItemKind]
    public var needs: ActionCredential
    /// Whether `--undo` takes it back (unfavourite, unlike, unstar).
    public var undoable: Bool
    /// What it costs or why it cannot be taken back, said before asking; nil when front ends
    /// may send it without asking.
    public var confirmation: String?
    public var summary: String
    /// The time zone the site's day begins in, for a once-a-day action (V2EX: UTC+8).
    public var dayZone: TimeZone?

    public init(
        _ action: ItemAction, kinds: [ItemKind], needs: ActionCredential, undoable: Bool = false, confirmation: String? = nil,
        summary: String, dayZone: TimeZone? = nil
    ) {
        self.dayZone = dayZone
        self.action = action
        self.kinds = kinds
        self.needs = needs
        self.undoable = undoable
        self.confirmation = confirmation
        self.summary = summary
    }
}

/// One action asked of a provider.
public struct ActionRequest: Sendable {
    public var action: ItemAction
    /// The item acted on; nil for an action on the site (check-in).
    public var item: Item?
    /// A reply's text, sent exactly as given.
    public var text: String?
    /// A reaction's name (`+1`, `heart`, …).
    public var reaction: String?
    /// Take the action back (unfavourite, unlike, unstar).
    public var undo: Bool

    public init(action: ItemAction, item: Item?, text: String? = nil, reaction: String? = nil, undo: Bool = false) {
        self.action = action
        self.item = item
        self.text = text
        self.reaction = reaction
        self.undo = undo
    }
}

/// What a provider reports of an action it performed.
public struct ActionOutcome: Sendable {
    /// One line for the user: `replied to topic 1147555`, `already claimed today`.
    public var message: String
    /// Whether the site said it was done before (already thanked, already claimed): a
    /// success all the same.
    public var alreadyDone: Bool
    /// Items the action made upstream (a reply, a comment), to store in the thread.
    public var newItems: [Item]
    /// Consecutive days signed in, when a check-in says (V2EX's 已连续登录 N 天).
    public var streak: Int?

    public init(message: String, alreadyDone: Bool = false, newItems: [Item] = [], streak: Int? = nil) {
        self.message = message
        self.alreadyDone = alreadyDone
        self.newItems = newItems
        self.streak = streak
    }
}

/// Why an action was not done: not offered, a missing credential, or the site's refusal.
public struct ActionError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
