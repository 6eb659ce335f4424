import Aggregator

/// A provider type used only by tests, exercising every kind of section argument and option.
///
/// Its fetch GETs `<api_url>/<section key>` through the context (so tests exercise real
/// HTTP, conditional GET and rate limits) and reads the body as contract NDJSON; a token
/// from `token_env` is sent as a Bearer header.
public struct SampleForumProvider: Provider {
    public static let metadata = ProviderMetadata(
        typeName: "forum", displayName: "Sample forum", summary: "Test-only forum with every section shape.",
        sections: [
            SectionKind("hot", summary: "Hot topics"),
            SectionKind("latest", summary: "Latest topics"),
            SectionKind(
                "node", summary: "One node", argument: .segments(["name"]),
                options: [OptionSpec("pages", .integer(1...10), summary: "Pages to read", default: "1")]),
            SectionKind("releases", summary: "Releases of a repository", argument: .segments(["owner", "repo"])),
            SectionKind(
                "trending", summary: "Trending", argument: .optionalSegment("language"),
                options: [OptionSpec("since", .choice(["daily", "weekly", "monthly"]), summary: "Period")]),
            SectionKind("url", summary: "A feed URL", argument: .rest("feed url")),
            SectionKind("notifications", summary: "Your notifications", needsToken: true),
        ],
        options: [
            OptionSpec("pages", .integer(1...10), summary: "Pages per section", default: "1"),
            OptionSpec("details", .boolean, summary: "Fetch details"),
            OptionSpec("mode", .choice(["api", "html"]), summary: "How to read"),
        ],
        auth: .optional(defaultTokenEnv: "FORUM_TOKEN", note: "raises limits"),
        defaultAPIURL: "https://api.forum.example", defaultWebURL: "https://forum.example")

    public let configuration: ProviderConfiguration

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        if configuration.booleanOption("details", default: false), configuration.stringOption("mode") == "api" {
            throw configuration.error(at: "options.details", "details need mode \"html\"")
        }
        self.configuration = configuration
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let base = Self.metadata.apiURL(for: configuration)
        var headers: [(String, String)] = []
        if let token = context.token(for: configuration, metadata: Self.metadata) { headers.append(("Authorization", "Bearer \(token)")) }
        let described = Section(provider: configuration.id, key: section.key, title: "Forum › \(section.key)")
        guard let response = try await context.get("\(base)/\(section.key)", headers: headers) else {
            return SectionFetch(section: described, items: nil)
        }
        let items = try ItemJSONReader.items(ndjson: String(decoding: response.body, as: UTF8.self)).map { item in
            var item = item
            item.provider = configuration.id
            item.section = section.key
            return item
        }
        return SectionFetch(section: described, items: items)
    }
}
