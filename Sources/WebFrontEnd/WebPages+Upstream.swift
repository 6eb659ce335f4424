import Aggregator
import Foundation

/// The item page's part that acts upstream: a button per action the item's site allows
/// (its state said: "Favourited", "Unstar"), a reply box, a confirmation for actions that
/// cost, and the outcome of the last one.
extension WebPages {
    /// What the page knows of acting on its item.
    struct Upstream {
        /// The actions offered for the item, credentials present.
        var offered: [ActionSupport]
        /// What was done through aggr already.
        var done: Set<ItemAction>
        /// An action waiting for the visitor's yes (`?confirm=thank`).
        var confirming: ActionSupport?
        /// The outcome of the action just sent, or its error.
        var result: String?
        var error: String?
    }

    func upstream(_ stored: StoredItem, _ upstream: Upstream) -> String {
        guard !upstream.offered.isEmpty || upstream.error != nil || upstream.result != nil else { return "" }
        let target = "/item/\(stored.ref)/act"
        var html = "<section class=\"upstream\" id=\"act\"><h2>\(HTML.escape(localized("On \(stored.item.provider)")))</h2>"
        if let result = upstream.result { html += "<p class=\"notice\" role=\"status\">\(HTML.escape(result))</p>" }
        if let error = upstream.error { html += "<p class=\"error\" role=\"alert\">\(HTML.escape(error))</p>" }
        if let confirming = upstream.confirming {
            html +=
                "<form class=\"confirm\" method=\"post\" action=\"\(target)\"><p>\(HTML.escape(Self.sentence(confirming.confirmation ?? "")))</p>"
                + hiddenFields([("action", confirming.action.rawValue), ("confirm", "1")])
                + "<button type=\"submit\">\(HTML.escape(Self.label(confirming.action, done: false)))</button> "
                + "<a href=\"/item/\(stored.ref)#act\">\(HTML.escape(localized("Cancel")))</a></form>"
        }
        var buttons = ""
        for support in upstream.offered where support.action != .reply {
            let done = upstream.done.contains(support.action)
            if support.action == .react {
                buttons +=
                    "<form method=\"post\" action=\"\(target)\">" + hiddenFields([("action", "react"), ("reaction", "+1")])
                    + "<button type=\"submit\">\(HTML.escape(done ? localized("Reacted 👍 again") : localized("React 👍")))</button></form>"
                continue
            }
            if done, !support.undoable {
                buttons += "<span class=\"done\">\(HTML.escape(Self.doneLabel(support.action)))</span>"
                continue
            }
            buttons +=
                "<form method=\"post\" action=\"\(target)\">"
                + hiddenFields([("action", support.action.rawValue)] + (done ? [("undo", "1")] : []))
                + "<button type=\"submit\" aria-pressed=\"\(done)\">\(HTML.escape(Self.label(support.action, done: done)))</button></form>"
        }
        if !buttons.isEmpty { html += "<div class=\"actions upstream-actions\">\(buttons)</div>" }
        if upstream.offered.contains(where: { $0.action == .reply }) {
            html +=
                "<form class=\"reply-box\" method=\"post\" action=\"\(target)\">" + hiddenFields([("action", "reply")])
                + "<label for=\"reply-text\">\(HTML.escape(localized("Reply")))</label><textarea id=\"reply-text\" name=\"text\" rows=\"5\" maxlength=\"10000\" required></textarea>"
                + "<button type=\"submit\">\(HTML.escape(localized("Send reply")))</button></form>"
        }
        return html + "</section>"
    }

    func hiddenFields(_ fields: [(String, String)]) -> String {
        ([("csrf", csrf)] + fields).map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTML.escape($0.1))\">" }.joined()
    }

    /// A button's words: `Thank`, `Favourite`, `Unfavourite`, `Star`, `Unstar`.
    static func label(_ action: ItemAction, done: Bool) -> String {
        switch (action, done) {
        case (.reply, _): return localized("Reply")
        case (.thank, false): return localized("Thank")
        case (.thank, true): return localized("Unthank")
        case (.favourite, false): return localized("Favourite")
        case (.favourite, true): return localized("Unfavourite")
        case (.like, false): return localized("Like")
        case (.like, true): return localized("Unlike")
        case (.star, false): return localized("Star")
        case (.star, true): return localized("Unstar")
        case (.react, _): return localized("React 👍")
        case (.checkin, _): return localized("Check in")
        }
    }

    /// The state an action left that cannot be undone: `Thanked`.
    static func doneLabel(_ action: ItemAction) -> String {
        switch action {
        case .thank: return localized("Thanked")
        case .favourite: return localized("Favourited")
        case .like: return localized("Liked")
        case .star: return localized("Starred")
        case .reply: return localized("Replied")
        case .react: return localized("Reacted")
        case .checkin: return localized("Checked in")
        }
    }

    /// `text` with a capital first letter and a full stop.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
