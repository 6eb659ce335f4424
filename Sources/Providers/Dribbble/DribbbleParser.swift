import Aggregator
import Foundation

/// Maps Dribbble API v2 payloads and shot-list pages to items of kind shot.
///
/// API v2 shots carry no counts and no user; the older shape (v1) had both, and either is
/// read. The best image wins: hidpi, else normal, else teaser.
public struct DribbbleParser: Sendable {
    public var provider: String
    public var webURL: String

    public init(provider: String, webURL: String) {
        self.provider = provider
        self.webURL = webURL
    }

    struct Images: Decodable {
        var hidpi: String?
        var normal: String?
        var teaser: String?
    }

    struct User: Decodable {
        var name: String?
        var login: String?
        var username: String?
        var htmlUrl: String?
    }

    struct Shot: Decodable {
        var id: Int
        var title: String
        var description: String?
        var images: Images?
        var publishedAt: String?
        var createdAt: String?
        var updatedAt: String?
        var htmlUrl: String
        var tags: [String]?
        var likesCount: Int?
        var viewsCount: Int?
        var commentsCount: Int?
        var user: User?
    }

    /// The authenticated user (`/user`).
    public struct Account: Decodable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var login: String
        public var htmlUrl: String
        public var followersCount: Int?

        public init(id: Int, name: String, login: String, htmlUrl: String, followersCount: Int? = nil) {
            self.id = id
            self.name = name
            self.login = login
            self.htmlUrl = htmlUrl
            self.followersCount = followersCount
        }
    }

    struct Project: Decodable {
        var id: Int
        var name: String
        var description: String?
        var shotsCount: Int?
        var createdAt: String?
        var updatedAt: String?
    }

    public func account(_ body: [UInt8], section: String) throws(ProviderError) -> Account {
        try ProviderJSON.decode(Account.self, body)
    }

    /// Shots of either API shape; `owner` stands in as author when a shot names none.
    public func shots(_ body: [UInt8], section: String, owner: Author? = nil) throws(ProviderError) -> [Item] {
        try ProviderJSON.decode([Shot].self, body).map { shot in
            let user = shot.user
            let name = user?.name ?? user?.username ?? user?.login
            let author = name.map { Author(name: $0, url: user?.htmlUrl) } ?? owner
            return Item(
                provider: provider, section: section, id: "shot/\(shot.id)", kind: .shot, title: ItemText.title(shot.title),
                url: shot.htmlUrl,
                author: author, summary: ItemText.summary(shot.description ?? ""), content: shot.description,
                published: (shot.publishedAt ?? shot.createdAt).flatMap { UpstreamDate.parse($0) } ?? Date(timeIntervalSince1970: 0),
                updated: shot.updatedAt.flatMap { UpstreamDate.parse($0) }, tags: shot.tags ?? [],
                metrics: Metrics(comments: shot.commentsCount, likes: shot.likesCount, views: shot.viewsCount),
                image: shot.images.flatMap { $0.hidpi ?? $0.normal ?? $0.teaser })
        }
    }

    /// The authenticated user's projects, linking to their pages under the account.
    public func projects(_ body: [UInt8], section: String, account: Account) throws(ProviderError) -> [Item] {
        try ProviderJSON.decode([Project].self, body).map { project in
            Item(
                provider: provider, section: section, id: "project/\(project.id)", kind: .post,
                title: ItemText.title("Project: \(project.name)"),
                url: "\(account.htmlUrl)/projects/\(project.id)", author: Author(name: account.name, url: account.htmlUrl),
                summary: ItemText.summary(project.description ?? ""),
                published: (project.createdAt).flatMap { UpstreamDate.parse($0) } ?? Date(timeIntervalSince1970: 0),
                updated: project.updatedAt.flatMap { UpstreamDate.parse($0) },
                extra: project.shotsCount.map { ["shots": String($0)] } ?? [:])
        }
    }

    /// A shot list page (popular, a user's shots, search): rows `li[id^=screenshot-]`.
    public func shotList(_ body: [UInt8], section: String, servedAt: Date) throws(ProviderError) -> [Item] {
        let document: MarkupDocument
        do {
            document = try MarkupDocument.html(body)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        let rows = (try? document.select(css: "li[id^='screenshot-']")) ?? []
        // verbatim: CSS selectors
        if rows.isEmpty, ((try? document.select(css: "ol.dribbbles, ol.shots-grid, #main")) ?? []).isEmpty {
            throw ProviderError.unexpectedPayload(detail: "not a Dribbble shot list (no li[id^=screenshot-])")
        }
        return rows.enumerated().compactMap { index, row -> Item? in
            guard let raw = row.attribute("id")?.dropFirst("screenshot-".count), let id = Int(raw) else { return nil }
            func first(_ selector: String) -> MarkupNode? { (try? row.first(css: selector)) ?? nil }
            func count(_ selector: String) -> Int? {
                first(selector).flatMap { DisplayedCount.parse($0.trimmedText) }
            }
            // verbatim: CSS selectors
            let title = first("a.dribbble-link")?.attribute("title") ?? first("a.dribbble-over strong")?.trimmedText ?? "Shot \(id)"
            var path = (first("a[href^='/shots/']")?.attribute("href") ?? "/shots/\(id)")
            if path.hasSuffix("/rebounds") { path = String(path.dropLast("/rebounds".count)) }
            let user = first("span.attribution-user a")
            let image =
                // verbatim: CSS selectors
                first("picture source")?.attribute("srcset")?.split(separator: " ").first.map(String.init)
                // verbatim: CSS selectors
                ?? first("picture img, img")?.attribute("src")
            // verbatim: CSS selectors
            let summary = first("a.dribbble-over span.comment")?.trimmedText ?? ""
            return Item(
                provider: provider, section: section, id: "shot/\(id)", kind: .shot, title: ItemText.title(title), url: webURL + path,
                author: user.map { Author(name: $0.trimmedText, url: $0.attribute("href").map { webURL + $0 }) },
                summary: ItemText.summary(summary), published: servedAt.addingTimeInterval(-Double(index)),
                // verbatim: CSS selectors
                metrics: Metrics(comments: count("li.cmnt span"), likes: count("li.fav a"), views: count("li.views span")), image: image)
        }
    }

    /// What a shot's own page adds: its posted date, tags, likes and saves, from the page's
    /// schema.org JSON-LD and Open Graph metadata.
    public struct ShotDetails: Sendable, Equatable {
        public var published: Date?
        public var tags: [String] = []
        public var likes: Int?
        public var saves: Int?
    }

    public func shotDetails(_ body: [UInt8]) -> ShotDetails {
        var details = ShotDetails()
        guard let document = try? MarkupDocument.html(body) else { return details }
        for script in (try? document.select(css: "script[type='application/ld+json']")) ?? [] {
            guard let value = try? JSONParser.parse(script.text, mode: .upstream) else { continue }
            if let date = value["datePublished"]?.stringValue ?? value["uploadDate"]?.stringValue {
                details.published = UpstreamDate.parse(date)
            }
            if let keywords = value["keywords"]?.stringValue {
                details.tags = keywords.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else if case .array(let words)? = value["keywords"] {
                details.tags = words.compactMap(\.stringValue)
            }
            if case .array(let statistics)? = value["interactionStatistic"] {
                for statistic in statistics {
                    let type = statistic["interactionType"]?.stringValue ?? statistic["interactionType"]?["@type"]?.stringValue ?? ""
                    let count = statistic["userInteractionCount"]?.integerValue
                    if type.contains("Like") { details.likes = count }
                    if type.contains("Bookmark") || type.contains("Save") { details.saves = count }
                }
            }
        }
        if details.published == nil,
            let time = ((try? document.select(css: "meta[property='article:published_time']").first) ?? nil)?.attribute("content")
        {
            details.published = UpstreamDate.parse(time)
        }
        return details
    }
}
