import Aggregator
import Foundation

/// V2EX (www.v2ex.com): the public JSON API v1, API 2.0 with a token, and the HTML pages
/// where the API is too thin (nodes without a token, tabs).
public struct V2EXProvider: Provider {
    static let pagesOption = OptionSpec("pages", .integer(1...10), summary: localized("Pages to read"), default: "1")

    /// The `type` of this provider's entries.
    public static let typeName = "v2ex"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "V2EX",
        summary: localized("Topics, replies and notifications from V2EX, the creative workers' community."),
        sections: V2EXRoute.Kind.allCases.map(\.section),
        options: [pagesOption],
        auth: .optional(defaultTokenEnv: "V2EX_TOKEN", note: "API 2.0 for nodes and notifications (https://www.v2ex.com/settings/tokens)"),
        defaultAPIURL: "https://www.v2ex.com", defaultWebURL: "https://www.v2ex.com",
        defaultInterval: TimeSpan(seconds: 600), tokenCheck: TokenCheck(path: "/api/v2/member"), actions: actions,
        absentActions: absentActions)

    public let configuration: ProviderConfiguration
    let apiURL: String
    let webURL: String

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        for (index, section) in configuration.sections.enumerated() where V2EXRoute.Kind(rawValue: section.kind) == .topic {
            guard let id = section.argument, Int(id) != nil else {
                throw configuration.error(at: "sections[\(index)]", localized("topic id must be a number, as in topic/1147555"))
            }
        }
        self.configuration = configuration
        apiURL = Self.metadata.apiURL(for: configuration)
        webURL = Self.metadata.webURL(for: configuration)
    }

    func pages(_ section: SectionSpec) -> Int {
        section.options["pages"].flatMap(Int.init) ?? configuration.integerOption("pages", default: 1)
    }

    /// V2EX's `?p=N` pages: a page that did not change is skipped, since later pages change on
    /// their own (reply counts, topics sinking).
    func numberedPages(_ section: SectionSpec) -> PagedList<Int> {
        PagedList(first: 1, pages: pages(section), unchanged: .isSkipped(then: { $0 + 1 }))
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        do {
            return try await fetchSection(section, context: context)
        } catch let error as ProviderError where error.reason == .needsSignIn && context.webCookie != nil {
            // With a session cookie, the sign-in page means the session ended, not that one is needed.
            throw ProviderError.needsSignIn(detail: localized("signed out: refresh the cookie in $\(context.webCookie!.variable)"))
        }
    }

    /// A topic's replies come from its `topic/<id>` section.
    public func threadSection(for item: Item) -> String? {
        guard item.kind == .topic, !item.id.isEmpty, item.id.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return "topic/\(item.id)"
    }

    func fetchSection(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let token = context.token(for: configuration, metadata: Self.metadata)
        let v1 = V2EXAPIv1Parser(provider: configuration.id, webURL: webURL)
        switch try V2EXRoute(section) {
        case .list(let name):
            let body = try await fetchJSON("\(apiURL)/api/topics/\(name).json", context: context)
            return SectionFetch(
                section: describe(section, name == "hot" ? "V2EX › Hot" : "V2EX › Latest"),
                items: try body.map { try v1.topics($0, section: section.key) })
        case .member(let name):
            let body = try await fetchJSON(
                "\(apiURL)/api/topics/show.json?username=\(PercentEncoding.component(name))", context: context)
            return SectionFetch(
                section: describe(section, "V2EX › @\(name)"), items: try body.map { try v1.topics($0, section: section.key) })
        case .node:
            if let token { return try await fetchNodeAPI(section, token: token, context: context) }
            return try await fetchNodePages(section, context: context)
        case .tab(let name):
            guard
                let response = try await fetchPage("\(webURL)/?tab=\(PercentEncoding.component(name))", context: context)
            else {
                return SectionFetch(section: describe(section, "V2EX › \(name)"), items: nil)
            }
            let page = try pageParser(response, context).topicList(response.body, section: section.key)
            return SectionFetch(section: describe(section, page.title ?? "V2EX › \(name)"), items: page.items)
        case .notifications:
            guard let token else {
                throw ProviderError.needsSignIn(
                    detail:
                        "V2EX notifications need a token: create one at https://www.v2ex.com/settings/tokens and set $\(tokenVariable)"
                )
            }
            let v2 = V2EXAPIv2Parser(provider: configuration.id, webURL: webURL)
            let items = try await numberedPages(section).read { page in
                try await fetchJSON("\(apiURL)/api/v2/notifications?p=\(page)", context: context, token: token)
            } parse: { body, page, _ in
                PagedList.Page(items: try v2.notifications(body, section: section.key), next: page + 1)
            }
            return SectionFetch(section: describe(section, "V2EX › Notifications"), items: items)
        case .topic(let id, let fromPage):
            return try await fetchTopic(section, id: id, fromPage: fromPage, context: context)
        }
    }

    func pageParser(_ response: HTTPResponse, _ context: ProviderContext) -> V2EXPageParser {
        V2EXPageParser(provider: configuration.id, webURL: webURL, serverDate: response.serverDate ?? context.now)
    }

    /// A node through API 2.0: its title, then its topics page by page.
    func fetchNodeAPI(_ section: SectionSpec, token: String, context: ProviderContext) async throws -> SectionFetch {
        let name = section.argument ?? ""
        let v2 = V2EXAPIv2Parser(provider: configuration.id, webURL: webURL)
        let items = try await numberedPages(section).read { page in
            try await fetchJSON(
                "\(apiURL)/api/v2/nodes/\(PercentEncoding.component(name))/topics?p=\(page)", context: context, token: token)
        } parse: { body, page, _ in
            PagedList.Page(items: try v2.topics(body, node: name, section: section.key), next: page + 1)
        }
        var title = "V2EX › \(name)"
        if items != nil,
            let body = try await fetchJSON(
                "\(apiURL)/api/v2/nodes/\(PercentEncoding.component(name))", context: context, token: token)
        {
            title = "V2EX › " + (try v2.node(body, section: section.key).title)
        }
        return SectionFetch(section: describe(section, title), items: items)
    }

    /// A node through its HTML pages `/go/<name>?p=N`.
    func fetchNodePages(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let name = section.argument ?? ""
        var title: String?
        let items = try await numberedPages(section).read { page in
            try await fetchPage("\(webURL)/go/\(PercentEncoding.component(name))" + (page > 1 ? "?p=\(page)" : ""), context: context)
        } parse: { response, page, _ in
            let parsed = try pageParser(response, context).topicList(response.body, section: section.key)
            title = title ?? parsed.title
            let items = parsed.items.map { item in
                var item = item
                item.extra["node"] = name
                return item
            }
            return PagedList.Page(items: items, next: page + 1)
        }
        return SectionFetch(section: describe(section, title ?? "V2EX › \(name)"), items: items)
    }

    func fetchTopic(_ section: SectionSpec, id: Int, fromPage: Bool, context: ProviderContext) async throws -> SectionFetch {
        if fromPage {
            let items = try await numberedPages(section).read { page in
                try await fetchPage("\(webURL)/t/\(id)" + (page > 1 ? "?p=\(page)" : ""), context: context)
            } parse: { response, page, _ in
                let parsed = try pageParser(response, context).topicPage(response.body, topicID: id, section: section.key)
                // Every page repeats the topic; only page 1's is kept.
                return PagedList.Page(items: page == 1 ? parsed : Array(parsed.dropFirst()), next: page + 1)
            }
            return SectionFetch(section: describe(section, "V2EX › \(items?.first?.title ?? "Topic \(id)")"), items: items)
        }
        let v1 = V2EXAPIv1Parser(provider: configuration.id, webURL: webURL)
        async let topicBody = fetchJSON("\(apiURL)/api/topics/show.json?id=\(id)", context: context)
        async let repliesBody = fetchJSON("\(apiURL)/api/replies/show.json?topic_id=\(id)", context: context)
        let (topicData, repliesData) = try await (topicBody, repliesBody)
        if topicData == nil, repliesData == nil {
            return SectionFetch(section: describe(section, "V2EX › Topic \(id)"), items: nil)
        }
        // One side changed: read both so the section is complete.
        let topicBytes: [UInt8]
        if let topicData {
            topicBytes = topicData
        } else {
            topicBytes =
                try await fetchJSON("\(apiURL)/api/topics/show.json?id=\(id)", context: context, conditional: false) ?? []
        }
        let repliesBytes: [UInt8]
        if let repliesData {
            repliesBytes = repliesData
        } else {
            repliesBytes =
                try await fetchJSON(
                    "\(apiURL)/api/replies/show.json?topic_id=\(id)", context: context, conditional: false) ?? []
        }
        guard let topic = try v1.topics(topicBytes, section: section.key).first else {
            throw ProviderError.notFound(detail: localized("V2EX has no topic \(id)"))
        }
        let replies = try v1.replies(repliesBytes, topicID: id, topicTitle: topic.title, section: section.key)
        return SectionFetch(section: describe(section, "V2EX › \(topic.title)"), items: [topic] + replies)
    }

}
