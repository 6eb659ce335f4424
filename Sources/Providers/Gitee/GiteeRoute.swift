import Aggregator

/// A Gitee section decoded once from its spec: what to fetch, with its options typed.
enum GiteeRoute: Equatable {
    /// An explore page's project list, by its `order` value (recommend, starred, latest).
    case projects(order: String)
    case releases(repo: String)
    case tags(repo: String)
    case issues(repo: String, state: String)
    case issue(repo: String, number: String)
    case pulls(repo: String, state: String)
    case commits(repo: String)
    case events(repo: String)
    /// A user's public events; nil: the token owner's.
    case user(login: String?)
    case search(query: String, sort: String?, order: String)

    /// The route for `section` of provider `provider`; a kind without one is an error, never
    /// another section.
    init(_ section: SectionSpec, provider: String) throws(ProviderError) {
        let repo = section.arguments.prefix(2).joined(separator: "/")
        let options = section.options
        switch section.kind {
        case "featured": self = .projects(order: "recommend")
        case "popular": self = .projects(order: "starred")
        case "latest": self = .projects(order: "latest")
        case "releases": self = .releases(repo: repo)
        case "tags": self = .tags(repo: repo)
        case "issues": self = .issues(repo: repo, state: options["state"] ?? "open")
        case "issue": self = .issue(repo: repo, number: section.arguments.last ?? "")
        case "pulls": self = .pulls(repo: repo, state: options["state"] ?? "open")
        case "commits": self = .commits(repo: repo)
        case "events": self = .events(repo: repo)
        case "user": self = .user(login: section.argument)
        case "search":
            self = .search(
                query: section.argument?.removingPercentEncoding ?? section.argument ?? "", sort: options["sort"],
                order: options["order"] ?? "desc")
        default: throw ProviderError.unknownSection(provider: provider, section: section.key)
        }
    }
}
