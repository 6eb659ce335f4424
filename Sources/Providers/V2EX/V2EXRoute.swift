import Aggregator

/// A V2EX section decoded once from its spec: what to fetch, with its options typed.
enum V2EXRoute: Equatable {
    /// API v1's hot or latest list, by its name.
    case list(String)
    case member(username: String)
    case node(name: String)
    case tab(name: String)
    case notifications
    case topic(id: Int, fromPage: Bool)

    /// The section kinds this type has, each with its entry in the metadata; the route
    /// decodes each of them, so a kind cannot be listed without a route or routed unlisted.
    enum Kind: String, CaseIterable {
        case hot, latest, node, tab, topic, member, notifications

        /// This kind in the type's metadata.
        var section: SectionKind {
            switch self {
            case .hot: SectionKind(rawValue, summary: localized("Today's hot topics (API v1)"))
            case .latest: SectionKind(rawValue, summary: localized("The newest topics (API v1)"))
            case .node:
                SectionKind(
                    rawValue, summary: "A node's topics (API 2.0 with a token, else the page /go/<name>)", argument: .segments(["name"]),
                    options: [V2EXProvider.pagesOption])
            case .tab:
                SectionKind(
                    rawValue, summary: localized("A home-page tab: tech, creative, play, apple, jobs, deals, city, qna, hot, all, r2, …"),
                    argument: .segments(["name"]))
            case .topic:
                SectionKind(
                    rawValue, summary: localized("One topic and its replies"), argument: .segments(["id"]),
                    options: [
                        OptionSpec("source", .choice(["api", "html"]), summary: localized("API v1 or the topic page"), default: "api"),
                        V2EXProvider.pagesOption,
                    ])
            case .member: SectionKind(rawValue, summary: localized("A member's topics (API v1)"), argument: .segments(["username"]))
            case .notifications:
                SectionKind(
                    rawValue, summary: localized("Your notifications (API 2.0)"), options: [V2EXProvider.pagesOption], needsToken: true)
            }
        }
    }

    /// The route for `section`; a kind this type does not list is an error, never another
    /// section.
    init(_ section: SectionSpec) throws(ProviderError) {
        guard let kind = Kind(rawValue: section.kind) else { throw ProviderError.unknownSection(section.key) }
        switch kind {
        case .hot, .latest: self = .list(section.kind)
        case .member: self = .member(username: section.argument ?? "")
        case .node: self = .node(name: section.argument ?? "")
        case .tab: self = .tab(name: section.argument ?? "")
        case .notifications: self = .notifications
        case .topic: self = .topic(id: Int(section.argument ?? "") ?? 0, fromPage: section.options["source"] == "html")
        }
    }
}
