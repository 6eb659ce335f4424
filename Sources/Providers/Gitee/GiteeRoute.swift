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

    /// The section kinds this type has, each with its entry in the metadata; the route
    /// decodes each of them, so a kind cannot be listed without a route or routed unlisted.
    enum Kind: String, CaseIterable {
        case featured, popular, latest, releases, tags, issues, issue, pulls, commits, events, user, search

        /// This kind in the type's metadata.
        var section: SectionKind {
            switch self {
            case .featured: SectionKind(rawValue, summary: "Recommended projects (web page /explore/all?order=recommend)")
            case .popular: SectionKind(rawValue, summary: "Most starred projects (web page /explore/all?order=starred)")
            case .latest: SectionKind(rawValue, summary: "Recently updated projects (web page /explore/all?order=latest)")
            case .releases: SectionKind(rawValue, summary: "Releases", argument: GiteeProvider.repo)
            case .tags:
                SectionKind(
                    rawValue, summary: localized("Tags, for projects that tag without publishing releases"), argument: GiteeProvider.repo)
            case .issues:
                SectionKind(
                    rawValue, summary: localized("Issues; state and type labels kept as tags"), argument: GiteeProvider.repo,
                    options: [
                        OptionSpec(
                            "state", .choice(["open", "progressing", "closed", "rejected", "all"]), summary: localized("Which issues"),
                            default: "open"
                        )
                    ])
            case .issue:
                SectionKind(rawValue, summary: localized("One issue and its comments"), argument: .segments(["owner", "repo", "number"]))
            case .pulls:
                SectionKind(
                    rawValue, summary: localized("Pull requests"), argument: GiteeProvider.repo,
                    options: [
                        OptionSpec(
                            "state", .choice(["open", "closed", "merged", "all"]), summary: localized("Which pulls"), default: "open")
                    ])
            case .commits: SectionKind(rawValue, summary: "Commits", argument: GiteeProvider.repo)
            case .events: SectionKind(rawValue, summary: localized("A repository's events"), argument: GiteeProvider.repo)
            case .user:
                SectionKind(
                    rawValue, summary: localized("A user's public events; without a login, the token owner's events"),
                    argument: .optionalSegment("login"))
            case .search:
                SectionKind(
                    rawValue, summary: localized("Repository search"), argument: .segments(["query"]),
                    options: [
                        OptionSpec("sort", .choice(["stars_count", "forks_count", "last_push_at"]), summary: "Order"),
                        OptionSpec("order", .choice(["desc", "asc"]), summary: "Direction", default: "desc"),
                    ])
            }
        }
    }

    /// The route for `section`; a kind this type does not list is an error, never another
    /// section.
    init(_ section: SectionSpec) throws(ProviderError) {
        let repo = section.arguments.prefix(2).joined(separator: "/")
        let options = section.options
        guard let kind = Kind(rawValue: section.kind) else { throw ProviderError.unknownSection(section.key) }
        switch kind {
        case .featured: self = .projects(order: "recommend")
        case .popular: self = .projects(order: "starred")
        case .latest: self = .projects(order: "latest")
        case .releases: self = .releases(repo: repo)
        case .tags: self = .tags(repo: repo)
        case .issues: self = .issues(repo: repo, state: options["state"] ?? "open")
        case .issue: self = .issue(repo: repo, number: section.arguments.last ?? "")
        case .pulls: self = .pulls(repo: repo, state: options["state"] ?? "open")
        case .commits: self = .commits(repo: repo)
        case .events: self = .events(repo: repo)
        case .user: self = .user(login: section.argument)
        case .search:
            self = .search(
                query: section.argument?.removingPercentEncoding ?? section.argument ?? "", sort: options["sort"],
                order: options["order"] ?? "desc")
        }
    }
}
