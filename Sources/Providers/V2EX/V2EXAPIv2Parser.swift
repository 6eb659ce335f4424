import Aggregator
import Foundation

/// Parses V2EX API 2.0 answers, all wrapped as `{"success": …, "message": …, "result": …}`.
public struct V2EXAPIv2Parser: Sendable {
    public var provider: String
    public var webURL: String

    public init(provider: String, webURL: String) {
        self.provider = provider
        self.webURL = webURL
    }

    struct Envelope<Result: Decodable>: Decodable {
        var success: Bool
        var message: String?
        var result: Result?
    }

    /// A node's details (`/api/v2/nodes/<name>`).
    public struct Node: Decodable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var title: String
        public var url: String?
        public var topics: Int?
        public var header: String?
        public var created: Int?
    }

    struct Member: Decodable {
        var username: String?
    }

    struct Notification: Decodable {
        var id: Int
        var member: Member?
        var created: Int
        var text: String
        var payload: String?
        var payloadRendered: String?
    }

    public func node(_ body: [UInt8], section: String) throws(ProviderError) -> Node {
        try unwrap(Node.self, body, section: section)
    }

    /// A node's topics (`/api/v2/nodes/<name>/topics`): the v1 topic shape, inside the envelope.
    public func topics(_ body: [UInt8], node: String, section: String) throws(ProviderError) -> [Item] {
        let v1 = V2EXAPIv1Parser(provider: provider, webURL: webURL)
        return try unwrap([V2EXAPIv1Parser.Topic].self, body, section: section).map { topic in
            var item = v1.topic(from: topic, section: section)
            item.extra["node"] = node
            return item
        }
    }

    /// Your notifications (`/api/v2/notifications`), each linking to the topic it is about.
    public func notifications(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        try unwrap([Notification].self, body, section: section).map { notification in
            var url = "\(webURL)/notifications"
            if let document = try? MarkupDocument.html(Array(notification.text.utf8)),
                let href = ((try? document.select(css: "a.topic-link, a[href^='/t/']").first) ?? nil)?.attribute("href")
            {
                url = webURL + (href.hasPrefix("/") ? href : "/" + href)
            }
            let author = notification.member?.username.flatMap { $0.isEmpty ? nil : $0 }
            return Item(
                provider: provider, section: section, id: "notification/\(notification.id)", kind: .notification,
                title: ItemText.title(HTMLText.plainText(notification.text)), url: url,
                author: author.map { Author(name: $0, url: "\(webURL)/member/\($0)") },
                summary: ItemText.summary(notification.payloadRendered ?? notification.payload ?? ""),
                content: notification.payloadRendered, published: Date(timeIntervalSince1970: Double(notification.created)))
        }
    }

    func unwrap<T: Decodable>(_ type: T.Type, _ body: [UInt8], section: String) throws(ProviderError) -> T {
        let envelope = try ProviderJSON.decode(Envelope<T>.self, body)
        guard envelope.success, let result = envelope.result else {
            let message = TerminalText.sanitize(envelope.message ?? localized("no result"))
            if message.lowercased().contains("token") || message.lowercased().contains("auth") {
                throw ProviderError.needsSignIn(detail: localized("V2EX API 2.0: \(message)"))
            }
            throw ProviderError.notFound(detail: localized("V2EX API 2.0: \(message)"))
        }
        return result
    }
}

/// A member as API v1 `/api/members/show.json` describes them.
public struct V2EXMember: Decodable, Sendable, Equatable {
    public var id: Int
    public var username: String
    public var url: String?
    public var website: String?
    public var bio: String?
    public var avatarLarge: String?
    public var created: Int?
    public var status: String?

    /// Parses the v1 member document; protocol-relative avatar URLs become https.
    public static func parse(_ body: [UInt8]) throws -> V2EXMember {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var member = try decoder.decode(V2EXMember.self, from: Data(body))
        if let avatar = member.avatarLarge, avatar.hasPrefix("//") { member.avatarLarge = "https:" + avatar }
        return member
    }
}
