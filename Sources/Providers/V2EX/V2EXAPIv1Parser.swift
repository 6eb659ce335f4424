import Aggregator
import Foundation

/// Parses V2EX API v1 payloads (`/api/topics/*.json`, `/api/replies/show.json`) into items.
///
/// Pure functions from bytes to items, tested on payloads captured from the real API.
public struct V2EXAPIv1Parser: Sendable {
    /// The provider instance id stamped on items.
    public var provider: String
    /// The site base, such as `https://www.v2ex.com`, for item and member URLs.
    public var webURL: String

    public init(provider: String, webURL: String) {
        self.provider = provider
        self.webURL = webURL
    }

    struct Member: Decodable {
        var username: String?

        /// The member as an author; V2EX sends `null` or `""` for deleted accounts.
        func author(_ webURL: String) -> Author? {
            guard let username, !username.isEmpty else { return nil }
            return Author(name: username, url: "\(webURL)/member/\(username)")
        }
    }

    struct Node: Decodable {
        var name: String
        var title: String?
    }

    struct Topic: Decodable {
        var id: Int
        var title: String
        var content: String?
        var contentRendered: String?
        var replies: Int?
        var member: Member?
        var node: Node?
        var created: Int
        var lastModified: Int?
        var lastTouched: Int?
    }

    struct Reply: Decodable {
        var id: Int
        var content: String?
        var contentRendered: String?
        var member: Member?
        var created: Int
        var lastModified: Int?
    }

    /// Topics from a topics list (`hot`, `latest`, `show?id=`, `show?username=`).
    public func topics(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        try decode([Topic].self, body, section: section).map { topic(from: $0, section: section) }
    }

    /// The replies of topic `topicID`, each an item linking to `/t/<id>#r_<reply id>`.
    public func replies(_ body: [UInt8], topicID: Int, topicTitle: String, section: String) throws(ProviderError) -> [Item] {
        try decode([Reply].self, body, section: section).map { reply in
            let text = ItemText.summary(reply.content ?? "")
            return Item(
                provider: provider, section: section, id: "reply/\(reply.id)", kind: .reply,
                title: "Re: \(topicTitle)", url: "\(webURL)/t/\(topicID)#r_\(reply.id)",
                author: reply.member?.author(webURL),
                summary: text, content: reply.contentRendered,
                published: Date(timeIntervalSince1970: Double(reply.created)),
                updated: reply.lastModified.flatMap { $0 > reply.created ? Date(timeIntervalSince1970: Double($0)) : nil },
                extra: ["topic": String(topicID)])
        }
    }

    /// One v1 topic (also the shape API 2.0 returns for node topics) as an item.
    func topic(from topic: Topic, section: String) -> Item {
        let touched = max(topic.lastTouched ?? 0, topic.lastModified ?? 0)
        var extra: [String: String] = [:]
        if let node = topic.node { extra["node"] = node.name }
        return Item(
            provider: provider, section: section, id: String(topic.id), kind: .topic,
            title: ItemText.title(topic.title), url: "\(webURL)/t/\(topic.id)",
            author: topic.member?.author(webURL),
            summary: ItemText.summary(topic.content ?? ""), content: topic.contentRendered,
            published: Date(timeIntervalSince1970: Double(topic.created)),
            updated: touched > topic.created ? Date(timeIntervalSince1970: Double(touched)) : nil,
            tags: [], metrics: Metrics(replies: topic.replies), extra: extra)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], section: String) throws(ProviderError) -> T {
        try ProviderJSON.decode(type, body)
    }

}
