import Aggregator
import Foundation

/// Maps GitHub REST payloads (releases, issues, pulls, notifications, repository search) to
/// items whose URLs are web pages, never API URLs.
public struct GitHubAPIParser: Sendable, ForgeParser {
    public var provider: String
    /// `https://github.com`, or a GitHub Enterprise web root.
    public var webURL: String
    /// `https://api.github.com`, or `https://host/api/v3`; API URLs under it are mapped to web pages.
    public var apiURL: String

    public init(provider: String, webURL: String, apiURL: String) {
        self.provider = provider
        self.webURL = webURL
        self.apiURL = apiURL
    }

    typealias User = ForgePayload.User
    typealias Label = ForgePayload.Label
    typealias Repository = ForgePayload.Repository

    struct Release: Decodable {
        var id: Int
        var tagName: String
        var name: String?
        var body: String?
        var htmlUrl: String
        var draft: Bool
        var prerelease: Bool
        var createdAt: String?
        var publishedAt: String?
        var author: User?
    }

    struct Issue: Decodable {
        var number: Int
        var title: String
        var body: String?
        var htmlUrl: String
        var state: String?
        var user: User?
        var labels: [Label]?
        var comments: Int?
        var createdAt: String
        var updatedAt: String?
        var pullRequest: PullLink?
    }

    struct Comment: Decodable {
        var id: Int
        var body: String?
        var htmlUrl: String
        var user: User?
        var createdAt: String
        var updatedAt: String?
    }

    struct PullLink: Decodable {
        var htmlUrl: String?
    }

    struct Notification: Decodable {
        struct Subject: Decodable {
            var title: String
            var url: String?
            var type: String
        }
        struct Repository: Decodable {
            var fullName: String
            var htmlUrl: String?
        }
        var id: String
        var reason: String
        var unread: Bool?
        var updatedAt: String
        var subject: Subject
        var repository: Repository
    }

    struct SearchResult: Decodable {
        var totalCount: Int
        var incompleteResults: Bool?
        var items: [Repository]
    }

    /// Releases of `repo` (a list, or the single `releases/latest` object); drafts are skipped.
    public func releases(_ body: [UInt8], repo: String, section: String, includePrereleases: Bool = true) throws(ProviderError) -> [Item] {
        let list: [Release]
        if let many = try? decode([Release].self, body, section: section) {
            list = many
        } else {
            list = [try decode(Release.self, body, section: section)]
        }
        let forge = ForgeItems(provider: provider, section: section)
        return list.filter { !$0.draft && (includePrereleases || !$0.prerelease) }.map { release in
            forge.release(
                id: release.id, repo: repo, tag: release.tagName, name: release.name, notes: release.body, url: release.htmlUrl,
                author: author(release.author), published: date(release.publishedAt) ?? date(release.createdAt),
                prerelease: release.prerelease)
        }
    }

    /// Issues or pull requests of `repo`; `pulls` false drops pull requests from the issues list.
    public func issues(_ body: [UInt8], repo: String, section: String, pulls: Bool) throws(ProviderError) -> [Item] {
        try decode([Issue].self, body, section: section).filter { pulls || $0.pullRequest == nil }.map { issue in
            var extra = ["repo": repo, "number": String(issue.number)]
            if let state = issue.state { extra["state"] = state }
            return Item(
                provider: provider, section: section, id: "\(repo)#\(issue.number)", kind: pulls ? .pull : .issue,
                title: ItemText.title(issue.title), url: issue.htmlUrl, author: author(issue.user),
                summary: ItemText.summary(MarkdownText.plainText(issue.body ?? "")), content: issue.body,
                published: date(issue.createdAt) ?? Date(timeIntervalSince1970: 0), updated: date(issue.updatedAt),
                tags: (issue.labels ?? []).map(\.name), metrics: Metrics(comments: issue.comments), extra: extra)
        }
    }

    /// One issue or pull request (`GET /repos/{repo}/issues/{number}`), kind by what it is.
    public func issue(_ body: [UInt8], repo: String, section: String) throws(ProviderError) -> Item {
        let issue = try decode(Issue.self, body, section: section)
        let kind: ItemKind = issue.pullRequest == nil ? .issue : .pull
        var item = try issues(Array("[".utf8) + body + Array("]".utf8), repo: repo, section: section, pulls: true)[0]
        item.kind = kind
        return item
    }

    /// An issue's or pull request's comments as replies (`…/issues/{number}/comments`),
    /// titled "Re: <title>", with ids under the issue's (`<repo>#<number>/note/<id>`).
    public func comments(_ body: [UInt8], repo: String, number: Int, title: String, section: String) throws(ProviderError) -> [Item] {
        try decode([Comment].self, body, section: section).map { comment in
            let created = date(comment.createdAt)
            let text = comment.body ?? ""
            return Item(
                provider: provider, section: section, id: "\(repo)#\(number)/note/\(comment.id)", kind: .reply,
                title: ItemText.title("Re: \(title)"), url: comment.htmlUrl, author: author(comment.user),
                summary: ItemText.summary(MarkdownText.plainText(text)), content: text,
                published: created ?? Date(timeIntervalSince1970: 0),
                updated: date(comment.updatedAt).flatMap { $0 > (created ?? $0) ? $0 : nil },
                extra: ["repo": repo, "number": String(number), "topic": "\(repo)#\(number)"])
        }
    }

    /// Notification threads; the subject's API URL becomes its web page.
    public func notifications(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        try decode([Notification].self, body, section: section).map { thread in
            let repoURL = thread.repository.htmlUrl ?? "\(webURL)/\(thread.repository.fullName)"
            return Item(
                provider: provider, section: section, id: "notification/\(thread.id)", kind: .notification,
                title: ItemText.title("\(thread.repository.fullName): \(thread.subject.title)"),
                url: thread.subject.url.flatMap(webPage) ?? repoURL, summary: "\(thread.subject.type) · \(thread.reason)",
                published: date(thread.updatedAt) ?? Date(timeIntervalSince1970: 0), tags: [thread.reason],
                extra: ["repo": thread.repository.fullName, "type": thread.subject.type])
        }
    }

    /// Repository search results (with or without `incomplete_results`, which 2014 answers lack).
    public func searchRepositories(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        try decode(SearchResult.self, body, section: section).items.map { repository($0, section: section) }
    }

    /// The web page of an API URL: `…/repos/o/r/pulls/103` → `https://github.com/o/r/pull/103`.
    public func webPage(_ api: String) -> String? {
        guard let range = api.range(of: "/repos/") else { return nil }
        var parts = api[range.upperBound...].split(separator: "/").map(String.init)
        guard parts.count >= 2 else { return nil }
        if parts.count >= 4 {
            switch parts[2] {
            case "pulls": parts[2] = "pull"
            case "commits": parts[2] = "commit"
            case "releases": parts = Array(parts.prefix(3))
            default: break
            }
        }
        return "\(webURL)/" + parts.joined(separator: "/")
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], section: String) throws(ProviderError) -> T {
        try ProviderJSON.decode(type, body)
    }

}
