import Aggregator
import Foundation

extension DribbbleProvider {
    /// Dribbble pages: popular shots, a search, a designer's shots.
    public static func section(following page: WebPage) throws(UnsupportedPage) -> String? {
        guard page.host == "dribbble.com" else { return nil }
        let parts = page.path
        switch parts.first {
        case "shots" where parts.count >= 2 && parts[1] == "popular":
            return "popular" + (page.query["timeframe"].map { "?timeframe=\($0)" } ?? "")
        case "search":
            let words = page.query["q"] ?? parts.dropFirst().last
            return words.map { "search/\($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0)" }
        case let name? where !["shots", "designers", "jobs", "tags", "stories", "session", "signup"].contains(name):
            return "user/\(name)"
        default:
            return nil
        }
    }
}
