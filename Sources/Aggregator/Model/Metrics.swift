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
