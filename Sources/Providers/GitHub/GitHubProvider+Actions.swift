import Aggregator
import Foundation

/// What a GitHub token does through aggr: star a repository, comment on an issue or pull
/// request, react to one or to a comment (REST API v3).
extension GitHubProvider {
    static let reactions = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"]

    static let actions = [
        ActionSupport(
            .star, kinds: [.repo, .release, .issue, .pull, .commit, .event, .reply], needs: .token, undoable: true,
            summary: localized("star the item's repository (needs a token that may star: classic public_repo, or fine-grained starring)")),
        ActionSupport(.reply, kinds: [.issue, .pull, .reply], needs: .token, summary: localized("comment on an issue or pull request")),
        ActionSupport(
            .react, kinds: [.issue, .pull, .reply], needs: .token,
            summary: localized("react to an issue, pull request or comment (\(reactions.joined(separator: " ")))")),
    ]
    static let absentActions: [ItemAction: String] = [
        .thank: localized("GitHub has no thanks: react with +1 or heart instead"),
        .favourite: localized("GitHub has no favourites: star the repository instead"),
        .like: localized("GitHub has no likes: react with +1 or heart instead"),
        .checkin: localized("GitHub has no daily check-in"),
    ]

    public func perform(_ request: ActionRequest, context: ActionContext) async throws -> ActionOutcome {
        guard let item = request.item, let target = ForgeActionTarget(item) else {
            throw ActionError(localized("this item names no GitHub repository"))
        }
        let headers = [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", "2022-11-28")]
        let (_, authorized) = TokenPlacement.bearer.authorize("", headers: headers, token: context.token)
        switch request.action {
        case .star:
            let send = HTTPRequest(
                url: "\(apiURL)/user/starred/\(target.repo)", method: request.undo ? "DELETE" : "PUT",
                headers: authorized + [("Content-Length", "0")], body: [])
            guard try await context.send(send) != nil else { return ActionOutcome(message: localized("would star \(target.repo)")) }
            return ActionOutcome(message: request.undo ? "unstarred \(target.repo)" : "starred \(target.repo)")
        case .reply:
            let number = try target.issueNumber(for: .reply)
            let send = HTTPRequest(
                url: "\(apiURL)/repos/\(target.repo)/issues/\(number)/comments", method: "POST",
                headers: authorized + [("Content-Type", "application/json")], body: ForgeActionTarget.jsonBody("body", request.text ?? ""))
            guard let response = try await context.send(send) else {
                return ActionOutcome(message: localized("would comment on \(target.repo)#\(number)"))
            }
            let api = GitHubAPIParser(provider: configuration.id, webURL: webURL, apiURL: apiURL)
            let made = try api.comments(
                Array("[".utf8) + response.body + Array("]".utf8), repo: target.repo, number: Int(number) ?? 0, title: target.title,
                section: "issue/\(target.repo)/\(number)")
            return ActionOutcome(message: localized("commented on \(target.repo)#\(number)"), newItems: made)
        case .react:
            let reaction = request.reaction ?? "+1"
            guard Self.reactions.contains(reaction) else {
                throw ActionError(localized("GitHub reactions are \(Self.reactions.joined(separator: ", ")) (got \"\(reaction)\")"))
            }
            let number = try target.issueNumber(for: .react)
            let path = target.comment.map { "issues/comments/\($0)" } ?? "issues/\(number)"
            let send = HTTPRequest(
                url: "\(apiURL)/repos/\(target.repo)/\(path)/reactions", method: "POST",
                headers: authorized + [("Content-Type", "application/json")], body: ForgeActionTarget.jsonBody("content", reaction))
            guard let response = try await context.send(send) else { return ActionOutcome(message: localized("would react \(reaction)")) }
            // 200: this reaction was there already; 201: added.
            return ActionOutcome(message: localized("reacted \(reaction) to \(target.repo)#\(number)"), alreadyDone: response.status == 200)
        default:
            throw ActionError(Self.metadata.whyAbsent(request.action))
        }
    }
}
