import Aggregator
import Foundation

/// Maps Gitee API v5 payloads to items: issues keep their string numbers ("I4CE7W") and their
/// Chinese state and type labels as tags; URLs are web pages.
public struct GiteeParser: Sendable, ForgeParser {
    public var provider: String
    public var webURL: String

    public init(provider: String, webURL: String) {
        self.provider = provider
        self.webURL = webURL
    }

    typealias User = ForgePayload.User
    typealias Label = ForgePayload.Label
    typealias Repository = ForgePayload.Repository

    struct Issue: Decodable {
        var number: String
        var title: String
        var body: String?
        var htmlUrl: String
        var state: String?
        var user: User?
        var labels: [Label]?
        var comments: Int?
        var createdAt: String
        var updatedAt: String?
        var issueState: String?
        var issueType: String?
    }

    struct Pull: Decodable {
        var number: Int
        var title: String
        var body: String?
        var htmlUrl: String
        var state: String?
        var user: User?
        var createdAt: String
        var updatedAt: String?
    }

    struct Commit: Decodable {
        struct Detail: Decodable {
            struct Person: Decodable {
                var name: String?
                var date: String?
            }
            var message: String
            var author: Person?
        }
        var sha: String
        var htmlUrl: String?
        var commit: Detail
        var author: User?
    }

    struct Release: Decodable {
        var id: Int
        var tagName: String
        var name: String?
        var body: String?
        var prerelease: Bool?
        var author: User?
        var createdAt: String?
    }

    struct Tag: Decodable {
        struct Commit: Decodable {
            var sha: String
            var date: String?
        }
        var name: String
        var message: String?
        var commit: Commit?
    }

    struct Comment: Decodable {
        struct Target: Decodable {
            struct Issue: Decodable {
                var title: String?
                var number: String?
            }
            var issue: Issue?
        }
        var id: Int
        var body: String?
        var user: User?
        var target: Target?
        var createdAt: String
        var updatedAt: String?
    }

    /// A Gitee account, as `/user` and `/users/<login>` answer.
    public struct Account: Sendable, Equatable {
        public var login: String
        public var author: Author

        public init(login: String, author: Author) {
            self.login = login
            self.author = author
        }
    }

    /// A list of issues, or the single issue `/repos/<owner>/<repo>/issues/<number>` answers.
    public func issues(_ body: [UInt8], repo: String, section: String) throws(ProviderError) -> [Item] {
        let list: [Issue]
        if body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "{") {
            list = [try ProviderJSON.decode(Issue.self, body)]
        } else {
            list = try ProviderJSON.decode([Issue].self, body)
        }
        return list.map { issue in
            var tags = (issue.labels ?? []).map(\.name)
            tags += [issue.issueState, issue.issueType].compactMap { $0 }
            return Item(
                provider: provider, section: section, id: "\(repo)#\(issue.number)", kind: .issue, title: ItemText.title(issue.title),
                url: issue.htmlUrl, author: author(issue.user), summary: ItemText.summary(MarkdownText.plainText(issue.body ?? "")),
                content: issue.body, published: date(issue.createdAt) ?? Date(timeIntervalSince1970: 0), updated: date(issue.updatedAt),
                tags: tags, metrics: Metrics(comments: issue.comments),
                extra: ["repo": repo, "number": issue.number, "state": issue.state ?? ""])
        }
    }

    public func pulls(_ body: [UInt8], repo: String, section: String) throws(ProviderError) -> [Item] {
        try ProviderJSON.decode([Pull].self, body).map { pull in
            Item(
                provider: provider, section: section, id: "\(repo)!\(pull.number)", kind: .pull, title: ItemText.title(pull.title),
                url: pull.htmlUrl,
                author: author(pull.user), summary: ItemText.summary(MarkdownText.plainText(pull.body ?? "")), content: pull.body,
                published: date(pull.createdAt) ?? Date(timeIntervalSince1970: 0), updated: date(pull.updatedAt),
                extra: ["repo": repo, "number": String(pull.number), "state": pull.state ?? ""])
        }
    }

    public func commits(_ body: [UInt8], repo: String, section: String) throws(ProviderError) -> [Item] {
        try ProviderJSON.decode([Commit].self, body).map { commit in
            let message = commit.commit.message.trimmingWhitespace()
            let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
            return Item(
                provider: provider, section: section, id: "\(repo)@\(commit.sha)", kind: .commit, title: ItemText.title(firstLine),
                url: commit.htmlUrl ?? "\(webURL)/\(repo)/commit/\(commit.sha)",
                author: author(commit.author) ?? commit.commit.author?.name.map { Author(name: $0) }, summary: ItemText.summary(message),
                published: date(commit.commit.author?.date) ?? Date(timeIntervalSince1970: 0), extra: ["repo": repo, "sha": commit.sha])
        }
    }

    /// An issue's comments as replies linking to `…/issues/<number>#note_<id>`, titled
    /// "Re: <issue title>" (`issueTitle`, else the title the comment's target carries).
    public func comments(
        _ body: [UInt8], repo: String, number: String, issueTitle: String?, section: String
    ) throws(ProviderError)
        -> [Item]
    {
        try ProviderJSON.decode([Comment].self, body).map { comment in
            let title = issueTitle ?? comment.target?.issue?.title ?? "\(repo)#\(number)"
            let text = comment.body ?? ""
            let created = date(comment.createdAt)
            return Item(
                provider: provider, section: section, id: "\(repo)#\(number)/note/\(comment.id)", kind: .reply,
                title: ItemText.title("Re: \(title)"), url: "\(webURL)/\(repo)/issues/\(number)#note_\(comment.id)",
                author: author(comment.user), summary: ItemText.summary(MarkdownText.plainText(text)), content: text,
                published: created ?? Date(timeIntervalSince1970: 0),
                updated: date(comment.updatedAt).flatMap { $0 > (created ?? $0) ? $0 : nil },
                extra: ["repo": repo, "number": number])
        }
    }

    /// Tags, each linking to its tree, titled "<repo name> <tag>" with the tag message as summary.
    public func tags(_ body: [UInt8], repo: String, section: String) throws(ProviderError) -> [Item] {
        let repoName = repo.split(separator: "/").last.map(String.init) ?? repo
        return try ProviderJSON.decode([Tag].self, body).map { tag in
            var extra = ["repo": repo, "tag": tag.name]
            if let sha = tag.commit?.sha { extra["sha"] = sha }
            let encoded = tag.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? tag.name
            return Item(
                provider: provider, section: section, id: "\(repo)/tag/\(tag.name)", kind: .release,
                title: ItemText.title("\(repoName) \(tag.name)"), url: "\(webURL)/\(repo)/tree/\(encoded)",
                summary: ItemText.summary(tag.message ?? ""), published: date(tag.commit?.date) ?? Date(timeIntervalSince1970: 0),
                tags: ["tag"], extra: extra)
        }
    }

    /// The account `/user` (the token's owner) or `/users/<login>` describes.
    public func account(_ body: [UInt8], section: String) throws(ProviderError) -> Account {
        let user = try ProviderJSON.decode(User.self, body)
        guard !user.login.isEmpty else {
            throw ProviderError.unexpectedPayload(detail: localized("the account has an empty login"))
        }
        return Account(login: user.login, author: author(user) ?? Author(name: user.login))
    }

    public func releases(_ body: [UInt8], repo: String, section: String) throws(ProviderError) -> [Item] {
        let forge = ForgeItems(provider: provider, section: section)
        return try ProviderJSON.decode([Release].self, body).map { release in
            forge.release(
                id: release.id, repo: repo, tag: release.tagName, name: release.name, notes: release.body,
                url: "\(webURL)/\(repo)/releases/tag/\(release.tagName)", author: author(release.author),
                published: date(release.createdAt),
                prerelease: release.prerelease == true)
        }
    }

    /// Repositories (search results, a single repository).
    public func repositories(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        let list: [Repository]
        if let many = try? ProviderJSON.decode([Repository].self, body) {
            list = many
        } else {
            list = [try ProviderJSON.decode(Repository.self, body)]
        }
        return list.map { repository($0, section: section) }
    }
}
