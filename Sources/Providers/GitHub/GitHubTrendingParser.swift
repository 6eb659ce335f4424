import Aggregator
import Foundation

/// Parses https://github.com/trending (rows `article.Box-row`) into repository items.
public struct GitHubTrendingParser: Sendable {
    public var provider: String
    public var webURL: String
    /// When the page was served; trending is a snapshot, so rows are dated then.
    public var serverDate: Date

    public init(provider: String, webURL: String, serverDate: Date) {
        self.provider = provider
        self.webURL = webURL
        self.serverDate = serverDate
    }

    public func repositories(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        let document: MarkupDocument
        do {
            document = try MarkupDocument.html(body)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        let rows = (try? document.select(css: "article.Box-row")) ?? []
        guard !rows.isEmpty || ((try? document.select(css: "div.Box")) ?? []).count > 0 else {
            throw ProviderError.unexpectedPayload(detail: localized("not GitHub's trending page (no article.Box-row)"))
        }
        return rows.enumerated().compactMap { index, row in
            guard let link = (try? row.first(css: "h2 a, h1 a")) ?? nil, let href = link.attribute("href") else { return nil }
            let name = href.split(separator: "/").prefix(2).joined(separator: "/")
            guard name.contains("/") else { return nil }
            func count(_ selector: String) -> Int? {
                ((try? row.first(css: selector)) ?? nil).flatMap { DisplayedCount.parse($0.trimmedText) }
            }
            var extra = ["repo": name]
            if let language = ((try? row.first(css: "[itemprop=programmingLanguage]")) ?? nil)?.trimmedText { extra["language"] = language }
            if let today = ((try? row.first(css: "span.float-sm-right")) ?? nil)?.trimmedText { extra["period_stars"] = today }
            let owner = String(name.split(separator: "/")[0])
            return Item(
                provider: provider, section: section, id: "repo/\(name)", kind: .repo, title: name, url: "\(webURL)/\(name)",
                author: Author(name: owner, url: "\(webURL)/\(owner)"),
                summary: ItemText.summary(((try? row.first(css: "p")) ?? nil)?.trimmedText ?? ""),
                // Keep page order: the first row is the most trending.
                published: serverDate.addingTimeInterval(-Double(index)),
                metrics: Metrics(stars: count("a[href$='/stargazers']"), forks: count("a[href$='/forks']")), extra: extra)
        }
    }
}
