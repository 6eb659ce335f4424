import Aggregator

extension V2EXProvider {
    /// V2EX pages: the home page and its tabs, recent, nodes, topics, members, notifications.
    public static func section(following page: WebPage) throws(UnsupportedPage) -> String? {
        guard page.host == "v2ex.com" else { return nil }
        let parts = page.path
        switch parts.first {
        case nil: return page.query["tab"].map { "tab/\($0)" } ?? "hot"
        case "recent": return "latest"
        case "go" where parts.count >= 2: return "node/\(parts[1])"
        case "t" where parts.count >= 2 && Int(parts[1]) != nil: return "topic/\(parts[1])"
        case "member" where parts.count >= 2: return "member/\(parts[1])"
        case "notifications": return "notifications"
        default: return nil
        }
    }
}
