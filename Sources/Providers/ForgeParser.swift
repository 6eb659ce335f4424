import Aggregator
import Foundation

/// A parser of a code forge's API payloads (GitHub, Gitee): dates, authors and repositories
/// read the same way on both.
protocol ForgeParser {
    var provider: String { get }
    var webURL: String { get }
}

extension ForgeParser {
    func date(_ text: String?) -> Date? { text.flatMap { UpstreamDate.parse($0) } }

    /// The account's display name when it has one, else its login; its page, else `<web>/<login>`.
    func author(_ user: ForgePayload.User?) -> Author? {
        user.map { Author(name: $0.name.flatMap { $0.isEmpty ? nil : $0 } ?? $0.login, url: $0.htmlUrl ?? "\(webURL)/\($0.login)") }
    }

    /// A repository item: titled by Gitee's human name when there is one, authored by the
    /// namespace (a person or an organization; `owner` is the account that created it, for an
    /// organization one of its members), dated by its last push; `.git` is dropped from web URLs.
    func repository(_ repo: ForgePayload.Repository, section: String) -> Item {
        var url = repo.htmlUrl
        if url.hasSuffix(".git") { url.removeLast(4) }
        let namespace = repo.namespace?.path.map {
            ForgePayload.User(login: $0, name: repo.namespace?.name, htmlUrl: repo.namespace?.htmlUrl)
        }
        return ForgeItems(provider: provider, section: section).repository(
            fullName: repo.fullName, title: repo.humanName, url: url, description: repo.description, language: repo.language,
            stars: repo.stargazersCount, forks: repo.forksCount, owner: author(namespace ?? repo.owner),
            published: date(repo.pushedAt) ?? date(repo.updatedAt) ?? date(repo.createdAt),
            extra: repo.humanName.map { ["human_name": $0] } ?? [:])
    }
}
