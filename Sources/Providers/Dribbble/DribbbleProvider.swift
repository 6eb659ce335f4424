import Aggregator
import Foundation

/// Dribbble: your shots and projects through API v2; popular, user and search shots through
/// the site's pages, optionally enriched from each new shot's own page.
public struct DribbbleProvider: Provider {
    /// The `type` of this provider's entries.
    public static let typeName = "dribbble"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "Dribbble",
        summary: localized("Shots from Dribbble: yours through API v2, popular, a designer's and search results through the site's pages."),
        sections: DribbbleRoute.Kind.allCases.map(\.section),
        options: [
            OptionSpec(
                "details", .boolean, summary: localized("Read each new shot's page for its date, tags, likes and saves"), default: "false"),
            OptionSpec("max_details", .integer(1...60), summary: localized("Shot pages read per refresh at most"), default: "10"),
        ],
        auth: .optional(defaultTokenEnv: "DRIBBBLE_TOKEN", note: localized("OAuth token for API v2 (shots, projects)")),
        defaultAPIURL: "https://api.dribbble.com/v2", defaultWebURL: "https://dribbble.com", defaultInterval: TimeSpan(seconds: 3_600),
        tokenCheck: TokenCheck(path: "/user"), absentActions: Self.absentActions)

    /// Dribbble allows 60 requests a minute: shot pages are read one a second at most.
    static let detailSpacing: UInt64 = 1_000_000_000

    public let configuration: ProviderConfiguration
    let apiURL: String
    let webURL: String

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        apiURL = Self.metadata.apiURL(for: configuration)
        webURL = Self.metadata.webURL(for: configuration)
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let parser = DribbbleParser(provider: configuration.id, webURL: webURL)
        switch try DribbbleRoute(section) {
        case .account(let list):
            guard let token = context.token(for: configuration, metadata: Self.metadata) else {
                throw ProviderError.needsSignIn(detail: localized("Dribbble's API needs an OAuth token: set $\(tokenVariable)"))
            }
            guard let accountBody = try await api("/user", token: token, context: context, conditional: false) else {
                return SectionFetch(section: describe(section, "Dribbble"), items: nil)
            }
            let account = try parser.account(accountBody, section: section.key)
            guard let body = try await api("/user/\(list)", token: token, context: context, conditional: true)
            else {
                return SectionFetch(section: describe(section, "Dribbble › \(account.name)"), items: nil)
            }
            let items =
                list == "shots"
                ? try parser.shots(body, section: section.key, owner: Author(name: account.name, url: account.htmlUrl))
                : try parser.projects(body, section: section.key, account: account)
            return SectionFetch(section: describe(section, "Dribbble › \(account.name) \(list)"), items: items)
        case .page(let path, let title):
            guard let response = try await get(webURL + path, context: context) else {
                return SectionFetch(section: describe(section, title), items: nil)
            }
            var items = try parser.shotList(response.body, section: section.key, servedAt: response.serverDate ?? context.now)
            if configuration.booleanOption("details", default: false) {
                items = try await enrich(items, parser: parser, section: section, context: context)
            }
            return SectionFetch(section: describe(section, title), items: items)
        }
    }

    /// Reads the pages of shots not stored yet, at most `max_details`, one a second; a 429
    /// ends the pass and keeps what the list already gave.
    func enrich(_ items: [Item], parser: DribbbleParser, section: SectionSpec, context: ProviderContext) async throws -> [Item] {
        var result = items
        var budget = configuration.integerOption("max_details", default: 10)
        for index in result.indices where budget > 0 && !context.session.isStored(provider: configuration.id, id: result[index].id) {
            if budget < configuration.integerOption("max_details", default: 10) { try await Task.sleep(nanoseconds: Self.detailSpacing) }
            budget -= 1
            let response: HTTPResponse?
            do {
                response = try await get(result[index].url, context: context)
            } catch is RateLimitedError {
                context.logger.notice("dribbble \(section.key): shot pages rate limited; keeping the list as it is")
                break
            } catch HTTPError.status(_, let code, _) where code == 429 {
                break
            }
            guard let response else { continue }
            let details = parser.shotDetails(response.body)
            if let published = details.published { result[index].published = published }
            if !details.tags.isEmpty { result[index].tags = details.tags }
            if let likes = details.likes { result[index].metrics.likes = likes }
            if let saves = details.saves { result[index].extra["saves"] = String(saves) }
        }
        return result
    }

    /// A 404 from the API or a page: the account, project or designer does not exist. (A 401
    /// to the API, which always carries the token, is the context's ``TokenRejectedError``.)
    static let refusals = Refusals(site: "Dribbble", [404: .notFound])

    func api(_ path: String, token: String, context: ProviderContext, conditional: Bool) async throws -> [UInt8]? {
        let (url, headers) = TokenPlacement.bearer.authorize(apiURL + path, headers: [("Accept", "application/json")], token: token)
        return try await context.get(url, headers: headers, conditional: conditional, refusals: Self.refusals)?.body
    }

    func get(_ url: String, context: ProviderContext) async throws -> HTTPResponse? {
        try await context.get(url, headers: [("Accept", "text/html")], signedIn: true, refusals: Self.refusals)
    }

}

extension DribbbleProvider {
    /// Dribbble's API v2 gives third-party tokens no way to like: its like endpoints went
    /// with API v1 in 2018, and the web's own like needs the browser session and its CSRF token.
    static let absentActions: [ItemAction: String] = [
        .like: localized("Dribbble's API v2 has no like endpoint for third-party tokens (likes were API v1's, retired in 2018)"),
        .reply: localized("Dribbble's API v2 has no comment endpoint for third-party tokens"),
        .star: localized("Dribbble has no stars"), .thank: localized("Dribbble has no thanks"),
        .favourite: localized("Dribbble has no favourites"),
        .react: localized("Dribbble has no reactions"), .checkin: localized("Dribbble has no daily check-in"),
    ]
}
