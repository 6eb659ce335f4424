import Aggregator

/// A GitHub section decoded once from its spec: what to fetch, with its options typed.
enum GitHubRoute: Equatable {
    case releases(repo: String, prereleases: Bool)
    case issues(repo: String, state: String, labels: String?)
    case pulls(repo: String, state: String)
    /// One issue or pull request and its comments.
    case issue(repo: String, number: Int)
    case commits(repo: String)
    case events(repo: String)
    case user(login: String)
    case received(login: String)
    case notifications
    case search(query: String, sort: String?, order: String)
    case trending(language: String?, since: String)

    /// The route for `section` of provider `provider`; a kind without one is an error, never
    /// another section.
    init(_ section: SectionSpec, provider: String) throws(ProviderError) {
        let repo = section.arguments.joined(separator: "/")
        let options = section.options
        switch section.kind {
        case "releases": self = .releases(repo: repo, prereleases: options["prerelease"] != "false")
        case "issues": self = .issues(repo: repo, state: options["state"] ?? "open", labels: options["labels"])
        case "pulls": self = .pulls(repo: repo, state: options["state"] ?? "open")
        case "issue":
            self = .issue(repo: section.arguments.prefix(2).joined(separator: "/"), number: Int(section.arguments.last ?? "") ?? 0)
        case "commits": self = .commits(repo: repo)
        case "events": self = .events(repo: repo)
        case "user": self = .user(login: section.argument ?? "")
        case "received": self = .received(login: section.argument ?? "")
        case "notifications": self = .notifications
        case "search":
            let sort = options["sort"].flatMap { $0 == "best-match" ? nil : $0 }
            self = .search(
                query: section.argument?.removingPercentEncoding ?? section.argument ?? "", sort: sort, order: options["order"] ?? "desc")
        case "trending": self = .trending(language: section.argument, since: options["since"] ?? "daily")
        default: throw ProviderError.unknownSection(provider: provider, section: section.key)
        }
    }
}
