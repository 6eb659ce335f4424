import Aggregator
import Foundation
import Synchronization

/// Acting upstream from the reader: a key per action, a `y/N` on the status line for one
/// that costs, the reply composed in `$EDITOR`, the outcome in the status line.
extension TerminalReader {
    /// An action running off the loop: the item, then the line to show when it ends.
    final class SharedUpstreamRun: Sendable {
        private let state = Mutex<(ref: Int64, outcome: String?)?>(nil)

        func start(_ ref: Int64) { state.withLock { $0 = (ref, nil) } }
        func finish(_ outcome: String) { state.withLock { if $0 != nil { $0?.outcome = outcome } } }

        /// The finished action, taken.
        func take() -> (ref: Int64, outcome: String)? {
            state.withLock { current in
                guard let found = current, let outcome = found.outcome else { return nil }
                current = nil
                return (found.ref, outcome)
            }
        }

        var running: Bool { state.withLock { $0 != nil && $0?.outcome == nil } }
    }

    /// Starts `action` on the item under the cursor (or open), asking first when it costs.
    func actUpstream(_ action: ItemAction) {
        guard let stored = currentItem else {
            model.message = localized("no item here")
            return
        }
        guard !upstreamRun.running else {
            model.message = localized("an action is still under way")
            return
        }
        let actions = ItemActions(session: session)
        let support: ActionSupport
        do {
            support = try actions.support(action, on: stored)
        } catch {
            model.message = TerminalText.sanitize("\(error)")
            return
        }
        let done = (try? actions.states(of: [stored.ref])[stored.ref]?.contains(action)) ?? false
        var order = ItemActions.Order(action, reaction: action == .react ? "+1" : nil, undo: support.undoable && done)
        if action == .reply {
            guard let text = compose(), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                model.message = localized("the reply is empty: nothing was sent")
                return
            }
            order.text = text
        }
        if let warning = support.confirmation {
            confirming = (order, stored)
            model.message = TerminalText.sanitize(localized("\(warning): \(action.rawValue) “\(stored.item.title)”? y/N"))
            return
        }
        startUpstream(order, on: stored)
    }

    /// Runs `order` in the background; ``followUpstream()`` shows how it ended.
    func startUpstream(_ order: ItemActions.Order, on stored: StoredItem) {
        upstreamRun.start(stored.ref)
        model.message = "\(order.action.rawValue)…"
        let run = upstreamRun
        let actions = ItemActions(session: session)
        Task.detached {
            do {
                let result = try await actions.perform(order, on: stored)
                run.finish("\(result.provider): \(result.message)")
            } catch {
                run.finish("\(error)")
            }
        }
    }

    /// Shows a finished action's outcome and what it changed (a new reply in the thread).
    func followUpstream() throws {
        guard let (ref, outcome) = upstreamRun.take() else { return }
        if let page = model.page, page.stored.ref == ref, let stored = try session.item(ref: ref) {
            layOutPage(stored, thread: try session.thread(of: stored), note: nil)
        }
        try reloadItems()
        seenVersion = try session.dataVersion()
        model.message = TerminalText.sanitize(outcome)
    }

    /// The reply, written in `$VISUAL`/`$EDITOR` with the terminal handed over; nil when the
    /// editor failed.
    func compose() -> String? {
        try? ExternalEditor.compose(environment: environment) { run in
            if let screen { screen.suspend(run) } else { run() }
        }
    }
}
