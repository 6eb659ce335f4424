/// Counters an upstream site shows next to an item; each is absent when the site does not say.
public struct Metrics: Sendable, Hashable, Codable {
    public var replies: Int?
    public var comments: Int?
    public var stars: Int?
    public var forks: Int?
    public var likes: Int?
    public var views: Int?

    public init(
        replies: Int? = nil, comments: Int? = nil, stars: Int? = nil,
        forks: Int? = nil, likes: Int? = nil, views: Int? = nil
    ) {
        self.replies = replies
        self.comments = comments
        self.stars = stars
        self.forks = forks
        self.likes = likes
        self.views = views
    }

    /// The counters that are present, in the output contract's order.
    public var present: [(name: String, value: Int)] {
        let all: [(String, Int?)] = [
            ("replies", replies), ("comments", comments), ("stars", stars),
            ("forks", forks), ("likes", likes), ("views", views),
        ]
        return all.compactMap { name, value in value.map { (name, $0) } }
    }

    /// The counters that are present as words, such as `1 reply` or `3 stars`.
    public var phrases: [String] { present.map { Metrics.phrase("\($0.value)", counting: $0.value, $0.name) } }

    /// `text` and a counter's name in the current language, the form following `count`:
    /// `1 reply`, `2 replies`, `1.2k stars`; `3 回复`, `1.2万 星标`.
    public static func phrase(_ text: String, counting count: Int, _ name: String) -> String {
        switch name {
        case "replies": return localized("\(text) reply", plural: "\(text) replies", count: count)
        case "comments": return localized("\(text) comment", plural: "\(text) comments", count: count)
        case "stars": return localized("\(text) star", plural: "\(text) stars", count: count)
        case "forks": return localized("\(text) fork", plural: "\(text) forks", count: count)
        case "likes": return localized("\(text) like", plural: "\(text) likes", count: count)
        case "views": return localized("\(text) view", plural: "\(text) views", count: count)
        default: return "\(text) \(name)"
        }
    }

    /// Builds metrics from name/value pairs, ignoring names that are not counters.
    public init(named pairs: [(String, Int)]) {
        self.init()
        for (name, value) in pairs {
            switch name {
            case "replies": replies = value
            case "comments": comments = value
            case "stars": stars = value
            case "forks": forks = value
            case "likes": likes = value
            case "views": views = value
            default: continue
            }
        }
    }
}
