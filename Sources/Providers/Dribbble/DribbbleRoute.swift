import Aggregator

/// A Dribbble section decoded once from its spec: an API list, or a page of shots.
enum DribbbleRoute: Equatable {
    /// API v2's `/user/shots` or `/user/projects`.
    case account(list: String)
    /// A page of shots: its path and the section's title.
    case page(path: String, title: String)

    /// The section kinds this type has, each with its entry in the metadata; the route
    /// decodes each of them, so a kind cannot be listed without a route or routed unlisted.
    enum Kind: String, CaseIterable {
        case shots, projects, popular, user, search

        /// This kind in the type's metadata.
        var section: SectionKind {
            switch self {
            case .shots: SectionKind(rawValue, summary: localized("Your shots (API v2 /user/shots)"), needsToken: true)
            case .projects: SectionKind(rawValue, summary: localized("Your projects (API v2 /user/projects)"), needsToken: true)
            case .popular:
                SectionKind(
                    rawValue, summary: localized("Popular shots (the page /shots/popular)"),
                    options: [OptionSpec("timeframe", .choice(["week", "month", "year", "ever"]), summary: "Period")])
            case .user: SectionKind(rawValue, summary: "A designer's shots (the page /<name>)", argument: .segments(["name"]))
            case .search:
                SectionKind(
                    rawValue, summary: "Recent shots for a query (the page /search/shots/recent?q=)", argument: .segments(["query"]))
            }
        }
    }

    /// The route for `section`; a kind this type does not list is an error, never another
    /// section.
    init(_ section: SectionSpec) throws(ProviderError) {
        guard let kind = Kind(rawValue: section.kind) else { throw ProviderError.unknownSection(section.key) }
        switch kind {
        case .shots, .projects: self = .account(list: section.kind)
        case .popular:
            let timeframe = section.options["timeframe"].map { "?timeframe=\($0)" } ?? ""
            self = .page(path: "/shots/popular\(timeframe)", title: "Dribbble › Popular")
        case .user:
            let name = section.argument ?? ""
            self = .page(path: "/\(PercentEncoding.component(name))", title: "Dribbble › \(name)")
        case .search:
            let query = section.argument?.removingPercentEncoding ?? section.argument ?? ""
            self = .page(path: "/search/shots/recent?q=\(PercentEncoding.component(query))", title: "Dribbble › \(query)")
        }
    }
}
