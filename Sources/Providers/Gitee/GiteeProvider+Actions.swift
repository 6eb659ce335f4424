import Aggregator
import Foundation

/// What a Gitee token does through aggr: star a repository, comment on an issue (API v5).
extension GiteeProvider {
    static let actions = [
        ActionSupport(
            .star, kinds: [.repo, .release, .issue, .pull, .commit, .event, .reply], needs: .token, undoable: true,
            summary: localized("star the item's repository")),
        ActionSupport(.reply, kinds: [.issue, .reply], needs: .token, summary: localized("comment on an issue")),
    ]
    static let absentActions: [ItemAction: String] = [
        .thank: localized("Gitee has no thanks"), .favourite: localized("Gitee has no favourites: star the repository instead"),
        .like: localized("Gitee has no likes: star the repository instead"), .react: localized("Gitee's API v5 has no reactions"),
        .checkin: localized("Gitee has no daily check-in"),
    ]

    public func perform(_ request: ActionRequest, context: ActionContext) async throws -> ActionOutcome {
        guard let item = request.item, let target = ForgeActionTarget(item) else {
            throw ActionError(localized("this item names no Gitee repository"))
        }
        let headers = [("Accept", "application/json")]
        switch request.action {
        case .star:
            let (url, authorized) = TokenPlacement.query("access_token").authorize(
                "\(apiURL)/user/starred/\(target.repo)", headers: headers + [("Content-Length", "0")], token: context.token)
            guard
                try await context.send(HTTPRequest(url: url, method: request.undo ? "DELETE" : "PUT", headers: authorized, body: [])) != nil
            else { return ActionOutcome(message: localized("would star \(target.repo)")) }
            return ActionOutcome(message: request.undo ? "unstarred \(target.repo)" : "starred \(target.repo)")
        case .reply:
            let number = try target.issueNumber(for: .reply)
            let (url, authorized) = TokenPlacement.query("access_token").authorize(
                "\(apiURL)/repos/\(target.repo)/issues/\(number)/comments", headers: headers + [("Content-Type", "application/json")],
                token: context.token)
            let send = HTTPRequest(
                url: url, method: "POST", headers: authorized, body: ForgeActionTarget.jsonBody("body", request.text ?? ""))
            guard let response = try await context.send(send) else {
                return ActionOutcome(message: localized("would comment on \(target.repo)#\(number)"))
            }
            let parser = GiteeParser(provider: configuration.id, webURL: webURL)
            let made = try parser.comments(
                Array("[".utf8) + response.body + Array("]".utf8), repo: target.repo, number: number, issueTitle: target.title,
                section: "issue/\(target.repo)/\(number)")
            return ActionOutcome(message: localized("commented on \(target.repo)#\(number)"), newItems: made)
        default:
            throw ActionError(Self.metadata.whyAbsent(request.action))
        }
    }
}
