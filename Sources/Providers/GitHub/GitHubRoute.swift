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

    /// The section kinds this type has, each with its entry in the metadata; the route
    /// decodes each of them, so a kind cannot be listed without a route or routed unlisted.
    enum Kind: String, CaseIterable {
        case releases, issues, pulls, issue, commits, events, user, received, notifications, search, trending

        /// This kind in the type's metadata.
        var section: SectionKind {
            switch self {
            case .releases:
                SectionKind(
                    rawValue, summary: localized("Releases (drafts skipped)"), argument: GitHubProvider.repo,
                    options: [OptionSpec("prerelease", .boolean, summary: localized("Include prereleases"), default: "true")])
            case .issues:
                SectionKind(
                    rawValue, summary: localized("Issues (pull requests excluded)"), argument: GitHubProvider.repo,
                    options: [
                        OptionSpec("state", .choice(["open", "closed", "all"]), summary: localized("Which issues"), default: "open"),
                        OptionSpec("labels", .string, summary: localized("Comma-separated label names")),
                    ])
            case .pulls:
                SectionKind(
                    rawValue, summary: localized("Pull requests"), argument: GitHubProvider.repo,
                    options: [OptionSpec("state", .choice(["open", "closed", "all"]), summary: localized("Which pulls"), default: "open")])
            case .issue:
                SectionKind(
                    rawValue, summary: localized("One issue or pull request and its comments"),
                    argument: .segments(["owner", "repo", "number"]))
            case .commits:
                SectionKind(
                    rawValue, summary: localized("Commits, from the repository's Atom feed (no API quota)"), argument: GitHubProvider.repo)
            case .events: SectionKind(rawValue, summary: localized("A repository's events"), argument: GitHubProvider.repo)
            case .user: SectionKind(rawValue, summary: localized("A user's public events"), argument: .segments(["login"]))
            case .received: SectionKind(rawValue, summary: localized("Events a user received"), argument: .segments(["login"]))
            case .notifications: SectionKind(rawValue, summary: localized("Your notifications"), needsToken: true)
            case .search:
                SectionKind(
                    rawValue, summary: localized("Repository search"), argument: .segments(["query"]),
                    options: [
                        OptionSpec("sort", .choice(["stars", "forks", "updated", "best-match"]), summary: "Order", default: "best-match"),
                        OptionSpec("order", .choice(["desc", "asc"]), summary: "Direction", default: "desc"),
                    ])
            case .trending:
                SectionKind(
                    rawValue, summary: localized("Trending repositories (the page github.com/trending)"),
                    argument: .optionalSegment("language"),
                    options: [OptionSpec("since", .choice(["daily", "weekly", "monthly"]), summary: "Period", default: "daily")])
            }
        }
    }

    /// The route for `section`; a kind this type does not list is an error, never another
    /// section.
    init(_ section: SectionSpec) throws(ProviderError) {
        let repo = section.arguments.joined(separator: "/")
        let options = section.options
        guard let kind = Kind(rawValue: section.kind) else { throw ProviderError.unknownSection(section.key) }
        switch kind {
        case .releases: self = .releases(repo: repo, prereleases: options["prerelease"] != "false")
        case .issues: self = .issues(repo: repo, state: options["state"] ?? "open", labels: options["labels"])
        case .pulls: self = .pulls(repo: repo, state: options["state"] ?? "open")
        case .issue:
            self = .issue(repo: section.arguments.prefix(2).joined(separator: "/"), number: Int(section.arguments.last ?? "") ?? 0)
        case .commits: self = .commits(repo: repo)
        case .events: self = .events(repo: repo)
        case .user: self = .user(login: section.argument ?? "")
        case .received: self = .received(login: section.argument ?? "")
        case .notifications: self = .notifications
        case .search:
            let sort = options["sort"].flatMap { $0 == "best-match" ? nil : $0 }
            self = .search(
                query: section.argument?.removingPercentEncoding ?? section.argument ?? "", sort: sort, order: options["order"] ?? "desc")
        case .trending: self = .trending(language: section.argument, since: options["since"] ?? "daily")
        }
    }
}
