import Aggregator
import Foundation

/// Gitee (码云): the featured, popular and latest project lists from the explore pages, and
/// releases, tags, issues, pulls, commits, events and repository search through API v5.
///
/// The token from token_env is sent as the `access_token` query parameter, which every error,
/// log and recording shows as REDACTED.
public struct GiteeProvider: Provider {
    static let repo = SectionArgument.segments(["owner", "repo"])

    /// The `type` of this provider's entries.
    public static let typeName = "gitee"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "Gitee",
        summary:
            localized(
                "Featured, popular and latest projects (the explore pages gitee.com/explore/all; API v5 has no such lists); releases, ")
            + localized("tags, issues, pulls, commits, events and repository search through API v5."),
        sections: GiteeRoute.Kind.allCases.map(\.section),
        options: [OptionSpec("pages", .integer(1...10), summary: localized("Pages to read (page/per_page)"), default: "1")],
        auth: .optional(
            defaultTokenEnv: "GITEE_TOKEN", note: localized("sent as access_token; raises limits and shows private repositories")),
        defaultAPIURL: "https://gitee.com/api/v5", defaultWebURL: "https://gitee.com", defaultInterval: TimeSpan(seconds: 1_800),
        tokenCheck: TokenCheck(path: "/user", placement: .query("access_token")), actions: Self.actions, absentActions: Self.absentActions)

    public let configuration: ProviderConfiguration
    let apiURL: String
    let webURL: String

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        apiURL = Self.metadata.apiURL(for: configuration)
        webURL = Self.metadata.webURL(for: configuration)
    }

    var pages: Int { configuration.integerOption("pages", default: 1) }

    /// An issue's comments come from its `issue/<owner>/<repo>/<number>` section.
    public func threadSection(for item: Item) -> String? {
        ForgeIssueThread.section(for: item, kinds: [.issue], numeric: false)
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let parser = GiteeParser(provider: configuration.id, webURL: webURL)
        let events = GitHubEventParser(provider: configuration.id, webURL: webURL)
        let key = section.key
        switch try GiteeRoute(section) {
        case .projects(let order):
            return try await projects(section, order: order, context: context)
        case .releases(let repo):
            return try await paged("/repos/\(repo)/releases", section, context, title: "\(repo) releases") {
                try parser.releases($0, repo: repo, section: key)
            }
        case .tags(let repo):
            return try await paged("/repos/\(repo)/tags", section, context, title: "\(repo) tags") {
                try parser.tags($0, repo: repo, section: key)
            }
        case .issues(let repo, let state):
            return try await paged("/repos/\(repo)/issues?state=\(state)", section, context, title: "\(repo) issues") {
                try parser.issues($0, repo: repo, section: key)
            }
        case .issue(let repo, let number):
            return try await issue(repo: repo, number: number, section, context, parser: parser)
        case .pulls(let repo, let state):
            return try await paged("/repos/\(repo)/pulls?state=\(state)", section, context, title: "\(repo) pulls") {
                try parser.pulls($0, repo: repo, section: key)
            }
        case .commits(let repo):
            return try await paged("/repos/\(repo)/commits", section, context, title: "\(repo) commits") {
                try parser.commits($0, repo: repo, section: key)
            }
        case .events(let repo):
            return try await paged("/repos/\(repo)/events", section, context, title: "\(repo) events") {
                try events.events($0, section: key)
            }
        case .user(let login?):
            return try await paged("/users/\(PercentEncoding.component(login))/events/public", section, context, title: "Gitee @\(login)") {
                try events.events($0, section: key)
            }
        case .user(nil):
            guard context.token(for: configuration, metadata: Self.metadata) != nil else {
                throw ProviderError.needsSignIn(
                    detail: "without a login, `user` reads the token owner's events; set $\(tokenVariable) or write user/<login>")
            }
            let me = try await api("/user", context, conditional: false).map { try parser.account($0.body, section: key) }
            guard let me else { return SectionFetch(section: describe(section, "Gitee @me"), items: nil) }
            let title = "Gitee @\(me.login)" + (me.author.name == me.login ? "" : " (\(me.author.name))")
            return try await paged("/users/\(PercentEncoding.component(me.login))/events", section, context, title: title) {
                try events.events($0, section: key)
            }
        case .search(let query, let sort, let order):
            var search = "/search/repositories?q=\(PercentEncoding.component(query))"
            if let sort { search += "&sort=\(sort)&order=\(order)" }
            // verbatim: a section title kept with the items: data, the same in every language
            return try await paged(search, section, context, title: "Gitee search: \(query)") {
                try parser.repositories($0, section: key)
            }
        }
    }

    /// One API GET with the token as access_token; 401/403 become a token error naming the variable.
    func api(_ path: String, _ context: ProviderContext, conditional: Bool = true) async throws -> HTTPResponse? {
        let (url, headers) = TokenPlacement.query("access_token").authorize(
            apiURL + path, headers: [("Accept", "application/json")], token: context.token(for: configuration, metadata: Self.metadata))
        let refusal = Refusals.Meaning.signIn(hint: localized("check $\(tokenVariable)"))
        return try await context.get(
            url, headers: headers, conditional: conditional,
            refusals: Refusals(site: "Gitee", [401: refusal, 403: refusal]))
    }

    /// An API list read page by page (page/per_page) up to `pages`, stopping at a short page.
    func paged(
        _ path: String, _ section: SectionSpec, _ context: ProviderContext, title: String, parse: ([UInt8]) throws -> [Item]
    ) async throws -> SectionFetch {
        let perPage = min(configuration.limit ?? 20, 100)
        let items = try await PagedList(first: 1, pages: pages).read { page in
            try await api(path + (path.contains("?") ? "&" : "?") + "page=\(page)&per_page=\(perPage)", context)
        } parse: { response, page, _ in
            let items = try parse(response.body)
            return PagedList.Page(items: items, next: items.count < perPage ? nil : page + 1)
        }
        return SectionFetch(section: describe(section, title), items: items)
    }

    /// One issue and its comments (as replies); unchanged when neither changed.
    func issue(
        repo: String, number: String, _ section: SectionSpec, _ context: ProviderContext, parser: GiteeParser
    ) async throws
        -> SectionFetch
    {
        let path = "/repos/\(repo)/issues/\(PercentEncoding.component(number))"
        let issue = try await api(path, context).map { try parser.issues($0.body, repo: repo, section: section.key) } ?? []
        let title = issue.first?.title
        let comments = try await paged(path + "/comments", section, context, title: "") {
            try parser.comments($0, repo: repo, number: number, issueTitle: title, section: section.key)
        }
        let described = describe(section, title.map { "\(repo)#\(number) \($0)" } ?? "\(repo)#\(number)")
        if issue.isEmpty && comments.items == nil { return SectionFetch(section: described, items: nil) }
        return SectionFetch(section: described, items: issue + (comments.items ?? []))
    }

    /// A project list from the explore pages, `page=N` up to `pages` while a next page is linked.
    func projects(_ section: SectionSpec, order: String, context: ProviderContext) async throws -> SectionFetch {
        let names = ["recommend": "featured", "starred": "popular", "latest": "latest"]
        let described = describe(section, "Gitee \(names[order] ?? order) projects")
        let firewall = Refusals.Meaning.blocked(
            // verbatim: matched against the page, not a message
            barrier: "web firewall",
            advice: localized(
                "it may want a browser session for the explore pages, while the API sections (releases, issues, search…) still work"))
        let items = try await PagedList(first: 1, pages: pages).read { page in
            try await context.get(
                "\(webURL)/explore/all?order=\(order)&page=\(page)", headers: [("Accept", "text/html")], signedIn: true,
                refusals: Refusals(site: "Gitee", [403: firewall, 405: firewall]))
        } parse: { response, page, readBefore in
            let parser = GiteeExploreParser(provider: configuration.id, webURL: webURL, serverDate: response.serverDate ?? context.now)
            let parsed = try parser.page(response.body, section: section.key, ranked: order != "latest", offset: readBefore)
            return PagedList.Page(items: parsed.items, next: parsed.hasNext && !parsed.items.isEmpty ? page + 1 : nil)
        }
        return SectionFetch(section: described, items: items)
    }
}
