import Aggregator
import Foundation

/// Gitee (码云) through API v5: releases, issues, pulls, commits, events and repository search.
///
/// The token from token_env is sent as the `access_token` query parameter, which every error,
/// log and recording shows as REDACTED.
public struct GiteeProvider: Provider {
    static let repo = SectionArgument.segments(["owner", "repo"])

    public static let metadata = ProviderMetadata(
        typeName: "gitee", displayName: "Gitee",
        summary: "Releases, issues, pulls, commits and events of Gitee repositories, and repository search (API v5).",
        sections: [
            SectionKind("releases", summary: "Releases", argument: repo),
            SectionKind(
                "issues", summary: "Issues; state and type labels kept as tags", argument: repo,
                options: [
                    OptionSpec(
                        "state", .choice(["open", "progressing", "closed", "rejected", "all"]), summary: "Which issues", default: "open")
                ]),
            SectionKind(
                "pulls", summary: "Pull requests", argument: repo,
                options: [OptionSpec("state", .choice(["open", "closed", "merged", "all"]), summary: "Which pulls", default: "open")]),
            SectionKind("commits", summary: "Commits", argument: repo),
            SectionKind("events", summary: "A repository's events", argument: repo),
            SectionKind("user", summary: "A user's public events", argument: .segments(["login"])),
            SectionKind(
                "search", summary: "Repository search", argument: .segments(["query"]),
                options: [
                    OptionSpec("sort", .choice(["stars_count", "forks_count", "last_push_at"]), summary: "Order"),
                    OptionSpec("order", .choice(["desc", "asc"]), summary: "Direction", default: "desc"),
                ]),
        ],
        options: [OptionSpec("pages", .integer(1...10), summary: "Pages to read (page/per_page)", default: "1")],
        auth: .optional(defaultTokenEnv: "GITEE_TOKEN", note: "sent as access_token; raises limits and shows private repositories"),
        defaultAPIURL: "https://gitee.com/api/v5", defaultWebURL: "https://gitee.com", defaultInterval: TimeSpan(seconds: 1_800))

    public let configuration: ProviderConfiguration
    let apiURL: String
    let webURL: String

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        apiURL = configuration.apiURL ?? Self.metadata.defaultAPIURL!
        webURL = configuration.webURL ?? Self.metadata.defaultWebURL!
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let parser = GiteeParser(provider: configuration.id, webURL: webURL)
        let events = GitHubEventParser(provider: configuration.id, webURL: webURL)
        let repo = section.arguments.joined(separator: "/")
        let title: String
        let path: String
        let parse: ([UInt8]) throws -> [Item]
        switch section.kind {
        case "releases":
            (title, path, parse) = (
                "\(repo) releases", "/repos/\(repo)/releases", { try parser.releases($0, repo: repo, section: section.key) }
            )
        case "issues":
            let state = section.options["state"] ?? "open"
            (title, path, parse) = (
                "\(repo) issues", "/repos/\(repo)/issues?state=\(state)", { try parser.issues($0, repo: repo, section: section.key) }
            )
        case "pulls":
            let state = section.options["state"] ?? "open"
            (title, path, parse) = (
                "\(repo) pulls", "/repos/\(repo)/pulls?state=\(state)", { try parser.pulls($0, repo: repo, section: section.key) }
            )
        case "commits":
            (title, path, parse) = (
                "\(repo) commits", "/repos/\(repo)/commits", { try parser.commits($0, repo: repo, section: section.key) }
            )
        case "events":
            (title, path, parse) = ("\(repo) events", "/repos/\(repo)/events", { try events.events($0, section: section.key) })
        case "user":
            let login = section.argument ?? ""
            (title, path, parse) = ("Gitee @\(login)", "/users/\(login)/events/public", { try events.events($0, section: section.key) })
        default:
            let query = section.argument?.removingPercentEncoding ?? section.argument ?? ""
            var search = "/search/repositories?q=\(GitHubProvider.encode(query))"
            if let sort = section.options["sort"] { search += "&sort=\(sort)&order=\(section.options["order"] ?? "desc")" }
            (title, path, parse) = ("Gitee search: \(query)", search, { try parser.repositories($0, section: section.key) })
        }
        let described = Section(provider: configuration.id, key: section.key, title: TerminalText.sanitize(title))
        let perPage = min(configuration.limit ?? 20, 100)
        var items: [Item] = []
        for page in 1...configuration.integerOption("pages", default: 1) {
            var url = apiURL + path + (path.contains("?") ? "&" : "?") + "page=\(page)&per_page=\(perPage)"
            if let token = context.token(for: configuration, metadata: Self.metadata) {
                url += "&access_token=\(GitHubProvider.encode(token))"
            }
            let response: HTTPResponse?
            do {
                response = try await context.get(url, headers: [("Accept", "application/json")])
            } catch HTTPError.status(let failing, let code, let excerpt) where code == 401 || code == 403 {
                throw ProviderError.needsSignIn(
                    provider: configuration.id, section: section.key,
                    detail:
                        "Gitee refused the request (HTTP \(code) from \(failing)): \(excerpt); check $\(configuration.tokenEnv ?? "GITEE_TOKEN")"
                )
            }
            guard let response else {
                if page == 1 { return SectionFetch(section: described, items: nil) }
                break
            }
            let pageItems = try parse(response.body)
            items += pageItems
            if pageItems.count < perPage { break }
        }
        return SectionFetch(section: described, items: items)
    }
}
