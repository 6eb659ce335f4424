import Aggregator
import Foundation

/// GitHub (or GitHub Enterprise): releases, issues, pulls, commits, events, notifications,
/// repository search and the trending page.
public struct GitHubProvider: Provider {
    static let pagesOption = OptionSpec("pages", .integer(1...10), summary: "Pages to follow through Link rel=next", default: "1")
    static let repo = SectionArgument.segments(["owner", "repo"])

    /// The `type` of this provider's entries.
    public static let typeName = "github"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "GitHub",
        summary: localized("Releases, issues, pulls, commits and events of repositories and people on GitHub."),
        sections: GitHubRoute.Kind.allCases.map(\.section),
        options: [pagesOption],
        auth: .optional(defaultTokenEnv: "GITHUB_TOKEN", note: localized("raises the rate limit to 5000/hour; required for notifications")),
        defaultAPIURL: "https://api.github.com", defaultWebURL: "https://github.com", defaultInterval: TimeSpan(seconds: 900),
        tokenCheck: TokenCheck(
            path: "/user", headers: [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", "2022-11-28")]),
        actions: Self.actions, absentActions: Self.absentActions)

    public let configuration: ProviderConfiguration
    let apiURL: String
    let webURL: String

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        apiURL = Self.metadata.apiURL(for: configuration)
        webURL = Self.metadata.webURL(for: configuration)
    }

    /// An issue's or pull request's comments come from its `issue/<owner>/<repo>/<number>` section.
    public func threadSection(for item: Item) -> String? {
        ForgeIssueThread.section(for: item, kinds: [.issue, .pull], numeric: true)
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let api = GitHubAPIParser(provider: configuration.id, webURL: webURL, apiURL: apiURL)
        let events = GitHubEventParser(provider: configuration.id, webURL: webURL)
        let perPage = min(configuration.limit ?? 30, 100)
        switch try GitHubRoute(section) {
        case .releases(let repo, let prereleases):
            return try await paged("/repos/\(repo)/releases?per_page=\(perPage)", section, context, title: "\(repo) releases") {
                try api.releases($0, repo: repo, section: section.key, includePrereleases: prereleases)
            }
        case .issues(let repo, let state, let labels):
            var query = "per_page=\(perPage)&state=\(state)"
            if let labels { query += "&labels=\(PercentEncoding.component(labels))" }
            return try await paged("/repos/\(repo)/issues?\(query)", section, context, title: "\(repo) issues") {
                try api.issues($0, repo: repo, section: section.key, pulls: false)
            }
        case .pulls(let repo, let state):
            return try await paged("/repos/\(repo)/pulls?per_page=\(perPage)&state=\(state)", section, context, title: "\(repo) pulls") {
                try api.issues($0, repo: repo, section: section.key, pulls: true)
            }
        case .issue(let repo, let number):
            return try await issue(repo: repo, number: number, section: section, context: context, parser: api)
        case .events(let repo):
            return try await paged("/repos/\(repo)/events?per_page=\(perPage)", section, context, title: "\(repo) events") {
                try events.events($0, section: section.key)
            }
        case .user(let login):
            return try await paged("/users/\(login)/events/public?per_page=\(perPage)", section, context, title: "@\(login)") {
                try events.events($0, section: section.key)
            }
        case .received(let login):
            return try await paged("/users/\(login)/received_events?per_page=\(perPage)", section, context, title: "@\(login) received") {
                try events.events($0, section: section.key)
            }
        case .notifications:
            guard context.token(for: configuration, metadata: Self.metadata) != nil else {
                throw ProviderError.needsSignIn(
                    detail: localized("GitHub notifications need a token: set $\(tokenVariable) to a token with the notifications scope"))
            }
            return try await paged("/notifications?per_page=\(perPage)", section, context, title: "GitHub notifications") {
                try api.notifications($0, section: section.key)
            }
        case .search(let query, let sort, let order):
            var path = "/search/repositories?q=\(PercentEncoding.component(query))&per_page=\(perPage)"
            if let sort { path += "&sort=\(sort)&order=\(order)" }
            return try await paged(path, section, context, title: "GitHub search: \(query)") {
                try api.searchRepositories($0, section: section.key)
            }
        case .trending(let language, let since):
            let url = "\(webURL)/trending\(language.map { "/\(PercentEncoding.component($0))" } ?? "")?since=\(since)"
            guard let response = try await get(url, context: context, accept: "text/html") else {
                return SectionFetch(section: describe(section, "GitHub trending"), items: nil)
            }
            let parser = GitHubTrendingParser(provider: configuration.id, webURL: webURL, serverDate: response.serverDate ?? context.now)
            return SectionFetch(
                section: describe(section, "GitHub trending" + (language.map { " · \($0)" } ?? "")),
                items: try parser.repositories(response.body, section: section.key))
        case .commits(let repo):
            return try await commits(repo, section: section, context: context)
        }
    }

    /// An issue and its comments (up to 100); nil when neither changed.
    func issue(
        repo: String, number: Int, section: SectionSpec, context: ProviderContext, parser: GitHubAPIParser
    ) async throws
        -> SectionFetch
    {
        let accept = "application/vnd.github+json"
        let issueURL = "\(apiURL)/repos/\(repo)/issues/\(number)"
        let commentsURL = issueURL + "/comments?per_page=100"
        async let issueAnswer = get(issueURL, context: context, accept: accept)
        async let commentsAnswer = get(commentsURL, context: context, accept: accept)
        let (issueResponse, commentsResponse) = try await (issueAnswer, commentsAnswer)
        if issueResponse == nil, commentsResponse == nil {
            return SectionFetch(section: describe(section, "\(repo)#\(number)"), items: nil)
        }
        // One half changed: the other is read again in full, since both are stored together.
        var issueBody = issueResponse?.body
        if issueBody == nil {
            issueBody = try await get(issueURL, context: context, accept: accept, conditional: false)?.body
        }
        var commentsBody = commentsResponse?.body
        if commentsBody == nil {
            commentsBody = try await get(commentsURL, context: context, accept: accept, conditional: false)?.body
        }
        let item = try parser.issue(issueBody ?? [], repo: repo, section: section.key)
        let replies = try parser.comments(commentsBody ?? [], repo: repo, number: number, title: item.title, section: section.key)
        return SectionFetch(section: describe(section, "\(repo)#\(number) \(item.title)"), items: [item] + replies)
    }

    /// Commits from `<web>/<owner>/<repo>/commits.atom`: no API quota is spent.
    func commits(_ repo: String, section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let url = "\(webURL)/\(repo)/commits.atom"
        guard let response = try await get(url, context: context, accept: "application/atom+xml") else {
            return SectionFetch(section: describe(section, "\(repo) commits"), items: nil)
        }
        let feed: Feed
        do {
            feed = try FeedParser(url: url, now: context.now).parse(response.body)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        let items = feed.entries.map { entry in
            let sha = entry.id.flatMap { $0.split(separator: "/").last.map(String.init) } ?? entry.link ?? entry.title
            return Item(
                provider: configuration.id, section: section.key, id: "\(repo)@\(sha)", kind: .commit, title: ItemText.title(entry.title),
                url: entry.link ?? "\(webURL)/\(repo)/commit/\(sha)", author: entry.author.map { Author(name: $0, url: "\(webURL)/\($0)") },
                summary: ItemText.summary(entry.content ?? ""), published: entry.updated ?? entry.published ?? context.now,
                extra: ["repo": repo, "sha": String(sha.prefix(40))])
        }
        return SectionFetch(section: describe(section, "\(repo) commits"), items: items)
    }

    /// GETs an API list page by page through `Link: <…>; rel="next"`; nil when page 1 is unchanged.
    func paged(
        _ path: String, _ section: SectionSpec, _ context: ProviderContext, title: String, parse: ([UInt8]) throws -> [Item]
    ) async throws -> SectionFetch {
        let list = PagedList(first: apiURL + path, pages: configuration.integerOption("pages", default: 1))
        let items = try await list.read { url in
            try await get(url, context: context, accept: "application/vnd.github+json")
        } parse: { response, _, _ in
            PagedList.Page(items: try parse(response.body), next: Self.nextLink(response.header("Link")))
        }
        return SectionFetch(section: describe(section, title), items: items)
    }

    /// One conditional GET with GitHub's headers; a 401 without a token names the variable to set.
    func get(
        _ url: String, context: ProviderContext, accept: String, conditional: Bool = true
    ) async throws
        -> HTTPResponse?
    {
        var headers = [("Accept", accept)]
        if accept.contains("github") { headers.append(("X-GitHub-Api-Version", "2022-11-28")) }
        let (url, authorized) = TokenPlacement.bearer.authorize(
            url, headers: headers, token: context.token(for: configuration, metadata: Self.metadata))
        return try await context.get(
            url, headers: authorized, conditional: conditional,
            refusals: Refusals(site: "GitHub", [401: .signIn(hint: localized("set $\(tokenVariable) (a token is needed here)"))]))
    }

    /// The `rel="next"` URL of a Link header.
    public static func nextLink(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
            guard let start = part.firstIndex(of: "<"), let end = part.firstIndex(of: ">") else { continue }
            return String(part[part.index(after: start)..<end])
        }
        return nil
    }

}
