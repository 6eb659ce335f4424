import Aggregator

extension GitHubProvider {
    /// GitHub pages: trending, notifications, users, and a repository's releases, issues,
    /// pulls and commits (any other repository page follows its releases).
    public static func section(following page: WebPage) throws(UnsupportedPage) -> String? {
        guard page.host == "github.com", let first = page.path.first else { return nil }
        let parts = page.path
        if first == "trending" {
            let since = page.query["since"].map { "?since=\($0)" } ?? ""
            return "trending" + (parts.count > 1 ? "/\(parts[1])" : "") + since
        }
        if first == "notifications" { return "notifications" }
        if parts.count == 1 { return "user/\(first)" }
        let repo = "\(parts[0])/\(parts[1])"
        switch parts.count > 2 ? parts[2] : "" {
        case "issues" where parts.count > 3 && Int(parts[3]) != nil: return "issue/\(repo)/\(parts[3])"
        case "pull" where parts.count > 3 && Int(parts[3]) != nil: return "issue/\(repo)/\(parts[3])"
        case "issues": return "issues/\(repo)"
        case "pulls", "pull": return "pulls/\(repo)"
        case "commits", "commit": return "commits/\(repo)"
        default: return "releases/\(repo)"
        }
    }
}
