import Aggregator
import Foundation

/// Recognizes web addresses of the sites aggr has types for, for `aggr add <url>`.
public enum SiteRecognizer {
    /// A section of a built-in type that follows the page at an address.
    public struct Match: Sendable, Equatable {
        public var type: String
        public var section: String

        public init(type: String, section: String) {
            self.type = type
            self.section = section
        }
    }

    /// Why an address of a known site cannot be added.
    public struct Unsupported: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The section for `address`, nil for a site aggr has no type for (try it as a feed).
    public static func match(_ address: String) throws(Unsupported) -> Match? {
        guard let components = URLComponents(string: address), let rawHost = components.host?.lowercased() else { return nil }
        let host = rawHost.hasPrefix("www.") ? String(rawHost.dropFirst(4)) : rawHost
        let parts = components.path.split(separator: "/").map(String.init)
        let query = Dictionary((components.queryItems ?? []).compactMap { item in item.value.map { (item.name, $0) } }) { first, _ in first
        }
        switch host {
        case "v2ex.com": return v2ex(parts, query: query)
        case "github.com": return github(parts, query: query)
        case "dribbble.com": return dribbble(parts, query: query)
        case "gitee.com": return try gitee(parts, query: query)
        default: return nil
        }
    }

    static func v2ex(_ parts: [String], query: [String: String]) -> Match? {
        switch parts.first {
        case nil: return Match(type: "v2ex", section: query["tab"].map { "tab/\($0)" } ?? "hot")
        case "recent": return Match(type: "v2ex", section: "latest")
        case "go" where parts.count >= 2: return Match(type: "v2ex", section: "node/\(parts[1])")
        case "t" where parts.count >= 2 && Int(parts[1]) != nil: return Match(type: "v2ex", section: "topic/\(parts[1])")
        case "member" where parts.count >= 2: return Match(type: "v2ex", section: "member/\(parts[1])")
        case "notifications": return Match(type: "v2ex", section: "notifications")
        default: return nil
        }
    }

    static func github(_ parts: [String], query: [String: String]) -> Match? {
        guard let first = parts.first else { return nil }
        if first == "trending" {
            let since = query["since"].map { "?since=\($0)" } ?? ""
            return Match(type: "github", section: "trending" + (parts.count > 1 ? "/\(parts[1])" : "") + since)
        }
        if first == "notifications" { return Match(type: "github", section: "notifications") }
        if parts.count == 1 { return Match(type: "github", section: "user/\(first)") }
        let repo = "\(parts[0])/\(parts[1])"
        switch parts.count > 2 ? parts[2] : "" {
        case "issues": return Match(type: "github", section: "issues/\(repo)")
        case "pulls", "pull": return Match(type: "github", section: "pulls/\(repo)")
        case "commits", "commit": return Match(type: "github", section: "commits/\(repo)")
        default: return Match(type: "github", section: "releases/\(repo)")
        }
    }

    static func gitee(_ parts: [String], query: [String: String]) throws(Unsupported) -> Match? {
        guard let first = parts.first else { throw Unsupported(description: "Gitee's home page has no feed; add a repository or a user") }
        if first == "explore" {
            guard parts.count == 1 || parts[1] == "all" else {
                throw Unsupported(
                    description: "Gitee's explore categories are not sections; featured, popular and latest (/explore/all) are")
            }
            switch query["order"] ?? "recommend" {
            case "starred": return Match(type: "gitee", section: "popular")
            case "latest": return Match(type: "gitee", section: "latest")
            default: return Match(type: "gitee", section: "featured")
            }
        }
        if parts.count == 1 { return Match(type: "gitee", section: "user/\(first)") }
        let repo = "\(parts[0])/\(parts[1])"
        switch parts.count > 2 ? parts[2] : "" {
        case "issues" where parts.count > 3: return Match(type: "gitee", section: "issue/\(repo)/\(parts[3])")
        case "issues": return Match(type: "gitee", section: "issues/\(repo)")
        case "pulls": return Match(type: "gitee", section: "pulls/\(repo)")
        case "commits", "commit": return Match(type: "gitee", section: "commits/\(repo)")
        case "tags": return Match(type: "gitee", section: "tags/\(repo)")
        default: return Match(type: "gitee", section: "releases/\(repo)")
        }
    }

    static func dribbble(_ parts: [String], query: [String: String]) -> Match? {
        switch parts.first {
        case "shots" where parts.count >= 2 && parts[1] == "popular":
            return Match(type: "dribbble", section: "popular" + (query["timeframe"].map { "?timeframe=\($0)" } ?? ""))
        case "search":
            let words = query["q"] ?? parts.dropFirst().last
            return words.map {
                Match(type: "dribbble", section: "search/\($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0)")
            }
        case let name? where !["shots", "designers", "jobs", "tags", "stories", "session", "signup"].contains(name):
            return Match(type: "dribbble", section: "user/\(name)")
        default:
            return nil
        }
    }

    /// The feeds a page advertises with `<link rel="alternate" type="…rss|atom|feed+json">`, resolved.
    public static func advertisedFeeds(in body: [UInt8], pageURL: String) -> [String] {
        guard let document = try? MarkupDocument.html(body, url: pageURL) else { return [] }
        let links = (try? document.select(css: "link[rel~=alternate]")) ?? []
        return links.compactMap { link -> String? in
            let type = (link.attribute("type") ?? "").lowercased()
            guard type.contains("rss") || type.contains("atom") || type.contains("feed+json"), let href = link.attribute("href") else {
                return nil
            }
            return URL(string: href, relativeTo: URL(string: pageURL))?.absoluteURL.absoluteString
        }
    }
}
