import Aggregator

/// A Dribbble section decoded once from its spec: an API list, or a page of shots.
enum DribbbleRoute: Equatable {
    /// API v2's `/user/shots` or `/user/projects`.
    case account(list: String)
    /// A page of shots: its path and the section's title.
    case page(path: String, title: String)

    /// The route for `section` of provider `provider`; a kind without one is an error, never
    /// another section.
    init(_ section: SectionSpec, provider: String) throws(ProviderError) {
        switch section.kind {
        case "shots", "projects": self = .account(list: section.kind)
        case "popular":
            let timeframe = section.options["timeframe"].map { "?timeframe=\($0)" } ?? ""
            self = .page(path: "/shots/popular\(timeframe)", title: "Dribbble › Popular")
        case "user":
            let name = section.argument ?? ""
            self = .page(path: "/\(PercentEncoding.component(name))", title: "Dribbble › \(name)")
        case "search":
            let query = section.argument?.removingPercentEncoding ?? section.argument ?? ""
            self = .page(path: "/search/shots/recent?q=\(PercentEncoding.component(query))", title: "Dribbble › \(query)")
        default: throw ProviderError.unknownSection(provider: provider, section: section.key)
        }
    }
}
