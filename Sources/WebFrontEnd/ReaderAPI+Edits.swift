import Aggregator
import Foundation

/// Changes reader apps send: read, kept-unread, starred and labels per item, marking a
/// stream read, and renaming and deleting labels and folders.
extension ReaderAPI {
    /// States clients send beside the ones aggr keeps, accepted and not kept, as FreshRSS
    /// does: newsboat marks unread with `kept-unread` plus `tracking-kept-unread`, and apps
    /// send `like` and `broadcast` (sharing) with a star.
    static let ignoredTags: Set<String> = [
        "user/-/state/com.google/tracking-kept-unread", "user/-/state/com.google/tracking-body-link-used",
        "user/-/state/com.google/tracking-emailed", "user/-/state/com.google/tracking-item-link-used",
        "user/-/state/com.google/like", "user/-/state/com.google/broadcast", "user/-/state/com.google/broadcast-friends",
    ]

    /// `POST edit-tag`: `a`/`r` of read, kept-unread, starred and user labels for every `i`.
    func editTag(_ request: WebRequest, keys: ServeKeys) throws -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let refs: [Int64]
        do {
            refs = try requestIDs(request)
        } catch {
            return .text("\(error.message)\n", status: 400)
        }
        let form = request.form + request.query
        let added = form.filter { $0.0 == "a" }.map { ReaderStream.normalized($0.1) }
        let removed = form.filter { $0.0 == "r" }.map { ReaderStream.normalized($0.1) }
        guard !added.isEmpty || !removed.isEmpty else { return .text("name a tag to add (a=) or remove (r=)\n", status: 400) }
        let known = [ReaderStream.readID, ReaderStream.starredID, ReaderStream.keptUnreadID]
        let (adding, removing) = (added.filter { !Self.ignoredTags.contains($0) }, removed.filter { !Self.ignoredTags.contains($0) })
        // Beside read, kept-unread and starred, labels of the user's own (`user/-/label/X`).
        func label(_ tag: String) -> String? {
            if case .label(let name)? = ReaderStream(tag) { return name }
            return nil
        }
        if let unknown = (adding + removing).first(where: { !known.contains($0) && label($0) == nil }) {
            return .text(localized("cannot set \"\(unknown)\": read, starred and user/-/label/… are the states aggr keeps\n"), status: 400)
        }
        for name in adding.compactMap(label) {
            if let problem = session.problem(withLabel: name) { return .text("\(problem)\n", status: 400) }
        }
        let stored = Set(try session.items(refs: refs).map(\.ref))
        let missing = refs.filter { !stored.contains($0) }
        guard missing.isEmpty else { return .text(localized("no item \(missing[0])\n"), status: 404) }
        for tag in adding {
            switch tag {
            case ReaderStream.readID: try session.setRead(refs, true)
            case ReaderStream.keptUnreadID: try session.setRead(refs, false)
            case ReaderStream.starredID: try session.setSaved(refs, true)
            default: try session.setLabel(label(tag) ?? tag, on: refs, true)
            }
        }
        for tag in removing {
            switch tag {
            case ReaderStream.readID: try session.setRead(refs, false)
            case ReaderStream.keptUnreadID: break
            case ReaderStream.starredID: try session.setSaved(refs, false)
            default: try session.setLabel(label(tag) ?? tag, on: refs, false)
            }
        }
        return .text("OK", status: 200)
    }

    /// `POST mark-all-as-read`: `s` (a stream), `ts` (only items stored up to then, µs).
    func markAllRead(_ request: WebRequest, keys: ServeKeys) throws -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let form = request.form + request.query
        guard let streamText = form.first(where: { $0.0 == "s" })?.1 else {
            return .text(localized("s: name the stream to mark read\n"), status: 400)
        }
        guard let stream = ReaderStream(streamText), var query = baseQuery(stream) else {
            return .text(localized("unknown stream \"\(streamText)\"\n"), status: 400)
        }
        if let stamp = form.first(where: { $0.0 == "ts" })?.1, !stamp.isEmpty {
            guard let micros = Int64(stamp), micros >= 0 else {
                return .text(localized("ts: \"\(stamp)\" is not a time in microseconds\n"), status: 400)
            }
            // Items that had reached aggr by then (the client's list), whatever their date;
            // one stored a moment later stays unread.
            query.storedBefore = Date(timeIntervalSince1970: Double(micros / 1_000 + 1) / 1_000)
        }
        try session.markRead(matching: query)
        return .text("OK", status: 200)
    }
}

extension ReaderAPI {
    /// Renames the label `POST rename-tag` names (`s`) to `dest`.
    ///
    /// A user's label is renamed on every item carrying it, a view in providers.json. A
    /// provider's folder is its id, which its stored items carry: that rename is refused
    /// with the reason.
    func renameTag(_ request: WebRequest, keys: ServeKeys) throws -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let form = request.form + request.query
        guard case .label(let name)? = (form.first { $0.0 == "s" }?.1).flatMap(ReaderStream.init),
            case .label(let newName)? = (form.first { $0.0 == "dest" }?.1).flatMap(ReaderStream.init)
        else { return .text(localized("s and dest: name the label and its new name (user/-/label/…)\n"), status: 400) }
        let configuration = session.configuration
        do {
            if configuration.views.contains(where: { $0.name == name }) {
                try session.renameView(name, to: newName)
            } else if configuration.provider(id: name) != nil {
                return .text(
                    localized("\"\(name)\" is a provider's folder: its id is stored with its items, so aggr does not rename it; ")
                        + localized("rename its subscriptions instead\n"), status: 400)
            } else {
                try session.renameLabel(name, to: newName)
            }
        } catch {
            return .text("\(error)\n", status: 400)
        }
        return .text("OK", status: 200)
    }

    /// Deletes the label `POST disable-tag` names (`s` its id, or `t` its name).
    ///
    /// A user's label comes off every item, a view leaves providers.json; a provider's
    /// folder goes only with its subscriptions (refused, with the reason).
    func disableTag(_ request: WebRequest, keys: ServeKeys) throws -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let form = request.form + request.query
        let name: String
        if case .label(let labelled)? = (form.first { $0.0 == "s" }?.1).flatMap(ReaderStream.init) {
            name = labelled
        } else if let title = form.first(where: { $0.0 == "t" })?.1, !title.isEmpty {
            name = title
        } else {
            return .text(localized("s: name the label (user/-/label/…) or t its name\n"), status: 400)
        }
        let configuration = session.configuration
        do {
            if configuration.views.contains(where: { $0.name == name }) {
                try session.removeView(name)
            } else if configuration.provider(id: name) != nil {
                return .text(localized("\"\(name)\" is a provider's folder: unsubscribe its subscriptions to remove it\n"), status: 400)
            } else {
                try session.removeLabel(name)
            }
        } catch {
            return .text("\(error)\n", status: 400)
        }
        return .text("OK", status: 200)
    }
}
