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

    /// The route for `section` of provider `provider`; a kind without one is an error, never
    /// another section.
    init(_ section: SectionSpec, provider: String) throws(ProviderError) {
        switch section.kind {
        case "hot", "latest": self = .list(section.kind)
        case "member": self = .member(username: section.argument ?? "")
        case "node": self = .node(name: section.argument ?? "")
        case "tab": self = .tab(name: section.argument ?? "")
        case "notifications": self = .notifications
        case "topic": self = .topic(id: Int(section.argument ?? "") ?? 0, fromPage: section.options["source"] == "html")
        default: throw ProviderError.unknownSection(provider: provider, section: section.key)
        }
    }
}
