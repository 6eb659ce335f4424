import Aggregator

extension GiteeProvider {
    /// Gitee pages: explore (featured, popular, latest), users, and a repository's releases,
    /// issues (or one issue), pulls, commits and tags.
    public static func section(following page: WebPage) throws(UnsupportedPage) -> String? {
        guard page.host == "gitee.com" else { return nil }
        let parts = page.path
        guard let first = parts.first else { throw UnsupportedPage(localized("Gitee's home page has no feed; add a repository or a user")) }
        if first == "explore" {
            guard parts.count == 1 || parts[1] == "all" else {
                throw UnsupportedPage(
                    localized("Gitee's explore categories are not sections; featured, popular and latest (/explore/all) are"))
            }
            switch page.query["order"] ?? "recommend" {
            case "starred": return "popular"
            case "latest": return "latest"
            default: return "featured"
            }
        }
        if parts.count == 1 { return "user/\(first)" }
        let repo = "\(parts[0])/\(parts[1])"
        switch parts.count > 2 ? parts[2] : "" {
        case "issues" where parts.count > 3: return "issue/\(repo)/\(parts[3])"
        case "issues": return "issues/\(repo)"
        case "pulls": return "pulls/\(repo)"
        case "commits", "commit": return "commits/\(repo)"
        case "tags": return "tags/\(repo)"
        default: return "releases/\(repo)"
        }
    }
}
