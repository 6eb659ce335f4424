import Aggregator
import Foundation

/// The pages: the timeline with its tabs, search and filter, and an item with its thread.
extension WebSite {
    func page(_ request: WebRequest, visitor: Visitor) throws -> WebResponse {
        let pages = WebPages(now: clock(), csrf: visitor.csrf, passwordProtected: try requiresSignIn(), user: visitor.session?.user)
        if request.path == "/" { return try timelinePage(request, pages: pages) }
        if request.path.hasPrefix("/item/"), let ref = Int64(request.path.dropFirst("/item/".count)) {
            guard var stored = try session.item(ref: ref) else {
                return .html(
                    pages.layout(
                        title: localized("Not found · aggr"),
                        content: pages.problem(localized("No such item"), localized("Item \(ref) is not stored."))),
                    status: 404)
            }
            // Opening an item reads it, as in the reader and in miniflux; its page can mark it unread again.
            if stored.isUnread, try session.setRead([ref], true) == 1 { stored.readAt = clock() }
            let thread = try session.thread(of: stored)
            let fetchable = fetchesThreads && session.threadCanBeFetched(stored, storedReplies: thread.count)
            let problem = request.parameter("thread_error")
            return .html(
                pages.layout(
                    title: "\(stored.item.title) · aggr",
                    content: pages.item(
                        stored, thread: thread, fetchable: fetchable, threadProblem: problem, upstream: try upstream(of: stored, request),
                        article: request.parameter("full") == "1" ? try session.keptFullText(of: ref) : nil,
                        fullTextProblem: request.parameter("full_error"))))
        }
        return .html(
            pages.layout(
                title: localized("Not found · aggr"),
                content: pages.problem(localized("Not found"), localized("Nothing lives at \(request.path)."))), status: 404)
    }

    /// What the item page offers upstream: the actions its site allows with the credentials
    /// set, what was done, a pending confirmation, and the last outcome.
    func upstream(of stored: StoredItem, _ request: WebRequest) throws -> WebPages.Upstream {
        let actions = ItemActions(session: session)
        let offered = ItemAction.allCases.compactMap { try? actions.support($0, on: stored) }
        let confirming = request.parameter("confirm").flatMap(ItemAction.init(rawValue:)).flatMap { action in
            offered.first { $0.action == action && $0.confirmation != nil }
        }
        return WebPages.Upstream(
            offered: offered, done: try actions.states(of: [stored.ref])[stored.ref] ?? [], confirming: confirming,
            result: request.parameter("act_result"), error: request.parameter("act_error"))
    }

    func timelinePage(_ request: WebRequest, pages: WebPages) throws -> WebResponse {
        let search = request.parameter("q")
        let filterText = request.parameter("where")
        let unreadOnly = request.parameter("unread") == "1"
        guard let tab = TimelineTab(webParameter: request.parameter("tab")) else {
            let given = request.parameter("tab") ?? ""
            return .html(
                pages.layout(
                    title: localized("Not found · aggr"),
                    content: pages.problem(
                        localized("No such tab"), "tab=\(given) is not a tab: use all, v:<view> or p:<provider>.")),
                status: 404)
        }
        var wanted = LibrarySession.PageRequest(
            tab: tab, filter: filterText, search: search, unreadOnly: unreadOnly, limit: search == nil ? 50 : WebPages.searchLimit)
        if let token = request.parameter("cursor") {
            guard let cursor = TimelineCursor(token: token) else {
                return .html(
                    pages.layout(
                        title: localized("Bad request · aggr"),
                        content: pages.problem(localized("Bad cursor"), localized("The page link is damaged."))),
                    status: 400)
            }
            wanted.cursor = cursor
        }
        var items: [StoredItem] = []
        var next: String?
        var filterError: String?
        var status = 200
        do {
            let page = try session.page(wanted)
            items = page.items
            next = page.nextCursor?.description
        } catch let error as UnknownTabError {
            return .html(
                pages.layout(title: localized("Not found · aggr"), content: pages.problem(localized("No such tab"), "\(error).")),
                status: 404)
        } catch ItemSelection.Failure.invalidFilter(let error) {
            filterError = "\(error)"
            status = 400
        }
        let strip = session.tabs()
        let counts = try session.unreadCounts(of: strip)
        let tabs = strip.map { ($0, counts[$0] ?? 0) }
        let back = HTML.link("/", [("tab", tab.webParameter), ("q", search), ("where", filterText), ("unread", unreadOnly ? "1" : nil)])
        let header = pages.header(tabs: tabs, current: tab, search: search, filter: filterText, unreadOnly: unreadOnly)
        let content = pages.timeline(
            items: items, tab: tab, filterError: filterError, search: search, filter: filterText, unreadOnly: unreadOnly, next: next,
            back: back)
        return .html(pages.layout(title: "\(tab.label) · aggr", header: header, content: content), status: status)
    }
}
