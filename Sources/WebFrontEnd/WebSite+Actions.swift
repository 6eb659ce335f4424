import Aggregator
import Foundation

/// What a signed-in visitor changes: read and saved marks, a tab marked read, a thread fetched.
extension WebSite {
    /// `POST /item/<ref>/thread`: fetches the thread through its provider, then shows the
    /// item again (with the reason when it could not).
    func fetchThread(_ ref: Int64) async throws -> WebResponse {
        guard fetchesThreads, let stored = try session.item(ref: ref) else { return .text(localized("no item \(ref)\n"), status: 404) }
        do {
            _ = try await session.fetchThread(of: stored)
            return .redirect(to: "/item/\(ref)#thread")
        } catch {
            return .redirect(to: HTML.link("/item/\(ref)", [("thread_error", "\(error)")]))
        }
    }

    /// `POST /item/<ref>/act`: one action upstream (`action`, `text`, `reaction`, `undo`),
    /// asking first (`confirm`) for one that costs; the item page shows the outcome.
    func actUpstream(_ ref: Int64, _ request: WebRequest) async throws -> WebResponse {
        guard let stored = try session.item(ref: ref) else { return .text(localized("no item \(ref)\n"), status: 404) }
        guard let name = request.field("action"), let action = ItemAction(rawValue: name), action != .checkin else {
            return .text(localized("action must be one of reply, thank, favourite, like, star, react\n"), status: 400)
        }
        let actions = ItemActions(session: session)
        if actions.confirmation(action, on: stored) != nil, request.field("confirm") != "1" {
            return .redirect(to: HTML.link("/item/\(ref)", [("confirm", action.rawValue)]) + "#act")
        }
        // The reply exactly as typed; browsers send a textarea's line ends as CR LF.
        let text = request.field("text")?.replacingOccurrences(of: "\r\n", with: "\n")
        let order = ItemActions.Order(action, text: text, reaction: request.field("reaction"), undo: request.field("undo") == "1")
        do {
            let result = try await actions.perform(order, on: stored)
            return .redirect(to: HTML.link("/item/\(ref)", [("act_result", "\(result.provider): \(result.message)")]) + "#act")
        } catch {
            return .redirect(to: HTML.link("/item/\(ref)", [("act_error", "\(error)")]) + "#act")
        }
    }

    func action(_ request: WebRequest) async throws -> WebResponse {
        let wantsJSON = request.header("Accept")?.contains("application/json") == true
        let back = Self.localPath(request.field("back")) ?? "/"
        let parts = request.path.split(separator: "/")
        if parts.count == 3, parts[0] == "item", let ref = Int64(parts[1]), parts[2] == "thread" {
            return try await fetchThread(ref)
        }
        if parts.count == 3, parts[0] == "item", let ref = Int64(parts[1]), parts[2] == "act" {
            return try await actUpstream(ref, request)
        }
        if parts.count == 3, parts[0] == "item", let ref = Int64(parts[1]), parts[2] == "full" {
            guard let stored = try session.item(ref: ref) else { return .text(localized("no item \(ref)\n"), status: 404) }
            do {
                _ = try await session.fullText(of: stored, refetch: request.field("refetch") == "1")
                return .redirect(to: "/item/\(ref)?full=1")
            } catch {
                return .redirect(to: HTML.link("/item/\(ref)", [("full_error", "\(error)")]))
            }
        }
        if parts.count == 3, parts[0] == "item", let ref = Int64(parts[1]) {
            switch (parts[2], request.field("state")) {
            case ("read", "read"?), ("read", "unread"?):
                let read = request.field("state") == "read"
                guard try session.setRead([ref], read) == 1 else { return .text(localized("no item \(ref)\n"), status: 404) }
                return wantsJSON
                    ? .text("{\"ref\":\(ref),\"read\":\(read)}", status: 200, contentType: "application/json") : .redirect(to: back)
            case ("save", "saved"?), ("save", "unsaved"?):
                let saved = request.field("state") == "saved"
                guard try session.setSaved([ref], saved) == 1 else { return .text(localized("no item \(ref)\n"), status: 404) }
                return wantsJSON
                    ? .text("{\"ref\":\(ref),\"saved\":\(saved)}", status: 200, contentType: "application/json") : .redirect(to: back)
            default:
                return .text(localized("state must be read/unread (…/read) or saved/unsaved (…/save)\n"), status: 400)
            }
        }
        if request.path == "/tab/read" {
            guard let tab = TimelineTab(webParameter: request.field("tab")) else {
                return .text(localized("no tab \(request.field("tab") ?? "")\n"), status: 404)
            }
            let count: Int
            do {
                count = try session.markRead(tab: tab, filter: request.field("where"))
            } catch is UnknownTabError {
                return .text(localized("no tab \(request.field("tab") ?? "")\n"), status: 404)
            } catch ItemSelection.Failure.invalidFilter(let error) {
                return .text("where: \(error)\n", status: 400)
            }
            return wantsJSON ? .text("{\"marked\":\(count)}", status: 200, contentType: "application/json") : .redirect(to: back)
        }
        return .text(localized("nothing to do at \(request.path)\n"), status: 404)
    }
}
