import Aggregator
import Foundation

/// Parses Gitee's project lists, the pages `/explore/all?order=recommend|starred|latest`
/// (rows `.explore-repo__list .item`, titled by `a.project-namespace-path`), into repository items.
///
/// The API v5 has no equivalent of these lists (its repository search ranks matches of a
/// query), so the web pages are the source. Counts print as "2.8W" (万) or "4.6K"; the exact
/// `data-count` is preferred when the page carries it. Row dates print without a zone and
/// are China time (+08:00).
public struct GiteeExploreParser: Sendable {
    public var provider: String
    public var webURL: String
    /// When the page was served: relative dates ("3小时前") count back from it, and ranked
    /// lists are dated from it so that page order survives in the timeline.
    public var serverDate: Date

    public init(provider: String, webURL: String, serverDate: Date) {
        self.provider = provider
        self.webURL = webURL
        self.serverDate = serverDate
    }

    /// One page of a list.
    public struct Page: Sendable {
        public var items: [Item]
        /// Whether the page links a next page (`a[rel=next]`).
        public var hasNext: Bool
    }

    /// The rows of one explore page.
    ///
    /// `ranked` dates rows by position (featured, popular), otherwise by their last update
    /// (latest), falling back to position. `offset` counts the rows of earlier pages, so ranks
    /// continue across pages.
    public func page(_ body: [UInt8], section: String, ranked: Bool, offset: Int = 0) throws(ProviderError) -> Page {
        let document: MarkupDocument
        do {
            document = try MarkupDocument.html(body)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        // A row is the nearest `.item` around each project link, whatever the list around it is called.
        let listed = (try? document.select(xpath: Self.rows)) ?? []
        if listed.isEmpty, ((try? document.select(css: ".explore-repo__list, #git-discover-page")) ?? []).isEmpty {
            let title = ((try? document.select(css: "title")) ?? []).first?.trimmedText ?? ""
            throw ProviderError.unexpectedPayload(
                detail:
                    localized("not Gitee's explore page (no .item rows around a.project-namespace-path links)")
                    + (title.isEmpty ? "" : localized("; the page is titled \"\(TerminalText.excerpt(title, limit: 80))\"")))
        }
        let forge = ForgeItems(provider: provider, section: section)
        let items = listed.enumerated().compactMap { index, row in
            item(row, rank: offset + index, ranked: ranked, forge: forge)
        }
        let next = !((try? document.select(css: "a[rel=next]")) ?? []).isEmpty
        return Page(items: items, hasNext: next)
    }

    static let rows =
        "//a[contains(concat(' ', normalize-space(@class), ' '), ' project-namespace-path ')]"
        + "/ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' item ')][1]"

    func item(_ row: MarkupNode, rank: Int, ranked: Bool, forge: ForgeItems) -> Item? {
        guard let link = (try? row.first(css: "a.project-namespace-path")) ?? nil, let href = link.attribute("href"),
            let fullName = Self.repositoryPath(href)
        else { return nil }
        func first(_ selector: String) -> MarkupNode? { (try? row.first(css: selector)) ?? nil }
        let display = link.attribute("title").flatMap { $0.isEmpty ? nil : $0 } ?? link.trimmedText
        let namespace = String(fullName.split(separator: "/")[0])
        let ownerName = display.split(separator: "/").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? namespace
        let stars = first(".stars-count").flatMap { node in
            node.attribute("data-count").flatMap { Int($0) } ?? DisplayedCount.parse(node.trimmedText)
        }
        let forks = first("a[href$='/members']").flatMap { DisplayedCount.parse($0.trimmedText) }
        let language = (first(".lang-label") ?? first(".project-language"))?.trimmedText
        let updated = first(".project-latest [title], .project-latest span").flatMap { node in
            Self.chinaTime(node.attribute("title") ?? node.trimmedText, reference: serverDate)
        }
        var tags = ((try? row.select(css: ".project-label-item")) ?? []).map(\.trimmedText).filter { !$0.isEmpty }
        if let badge = first(".js-popup-default[title]")?.attribute("title"), badge.hasPrefix("GVP") { tags.insert("GVP", at: 0) }
        let position = serverDate.addingTimeInterval(-Double(rank))
        var item = forge.repository(
            fullName: fullName, title: display, url: "\(webURL)/\(fullName)", description: first(".project-desc")?.trimmedText,
            language: language.flatMap { $0.isEmpty ? nil : $0 }, stars: stars, forks: forks,
            owner: Author(name: TerminalText.sanitize(ownerName), url: "\(webURL)/\(namespace)"),
            published: ranked ? position : updated ?? position, extra: ["rank": String(rank + 1)])
        item.updated = updated
        item.tags = tags.map { TerminalText.sanitize($0) }
        return item
    }

    /// `owner/repo` from a row link: `/owner/repo`, or the same as an absolute URL.
    static func repositoryPath(_ href: String) -> String? {
        var path = href
        if let range = path.range(of: "://") {
            path = String(path[range.upperBound...])
            path = path.firstIndex(of: "/").map { String(path[$0...]) } ?? ""
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).prefix(2)
        guard parts.count == 2 else { return nil }
        return parts.joined(separator: "/")
    }

    /// A page date: "2026-11-19 16:42:08" is China time; relative text counts back from `reference`.
    static func chinaTime(_ text: String, reference: Date) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.first?.isNumber == true, trimmed.contains("-"), let date = UpstreamDate.parse(trimmed + " +08:00") {
            return date
        }
        return UpstreamDate.parse(trimmed, relativeTo: reference)
    }
}
