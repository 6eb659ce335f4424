import Aggregator
import Foundation

/// V2EX (www.v2ex.com), through its public JSON API v1.
public struct V2EXProvider: Provider {
    public static let metadata = ProviderMetadata(
        typeName: "v2ex", displayName: "V2EX",
        summary: "Topics and replies from V2EX, the creative workers' community.",
        sections: [
            SectionKind("hot", summary: "Today's hot topics (API v1 /api/topics/hot.json)"),
            SectionKind("latest", summary: "The newest topics (API v1 /api/topics/latest.json)"),
            SectionKind("topic", summary: "One topic and its replies", argument: .segments(["id"])),
            SectionKind("member", summary: "A member's topics", argument: .segments(["username"])),
        ],
        options: [],
        auth: .none,
        defaultAPIURL: "https://www.v2ex.com", defaultWebURL: "https://www.v2ex.com",
        defaultInterval: TimeSpan(seconds: 600))

    public let configuration: ProviderConfiguration
    let apiURL: String
    let parser: V2EXAPIv1Parser

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        for (index, section) in configuration.sections.enumerated() where section.kind == "topic" {
            guard let id = section.argument, Int(id) != nil else {
                throw configuration.error(at: "sections[\(index)]", "topic id must be a number, as in topic/1147555")
            }
        }
        self.configuration = configuration
        apiURL = configuration.apiURL ?? Self.metadata.defaultAPIURL!
        parser = V2EXAPIv1Parser(provider: configuration.id, webURL: configuration.webURL ?? Self.metadata.defaultWebURL!)
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        switch section.kind {
        case "hot", "latest":
            let title = section.kind == "hot" ? "V2EX › Hot" : "V2EX › Latest"
            let body = try await get("/api/topics/\(section.kind).json", section: section, context: context)
            return SectionFetch(section: describe(section, title), items: try body.map { try parser.topics($0, section: section.key) })
        case "member":
            let name = section.argument ?? ""
            let body = try await get("/api/topics/show.json?username=\(Self.encode(name))", section: section, context: context)
            return SectionFetch(
                section: describe(section, "V2EX › @\(name)"), items: try body.map { try parser.topics($0, section: section.key) })
        default:
            return try await fetchTopic(section, context: context)
        }
    }

    private func fetchTopic(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let id = Int(section.argument ?? "") ?? 0
        async let topicBody = get("/api/topics/show.json?id=\(id)", section: section, context: context)
        async let repliesBody = get("/api/replies/show.json?topic_id=\(id)", section: section, context: context)
        let (topicData, repliesData) = try await (topicBody, repliesBody)
        if topicData == nil, repliesData == nil {
            return SectionFetch(section: describe(section, "V2EX › Topic \(id)"), items: nil)
        }
        // One side changed: parse both so the section is complete.
        let topicBytes: [UInt8]
        if let topicData {
            topicBytes = topicData
        } else {
            topicBytes = try await forceGet("/api/topics/show.json?id=\(id)", section: section, context: context)
        }
        let repliesBytes: [UInt8]
        if let repliesData {
            repliesBytes = repliesData
        } else {
            repliesBytes = try await forceGet("/api/replies/show.json?topic_id=\(id)", section: section, context: context)
        }
        guard let topic = try parser.topics(topicBytes, section: section.key).first else {
            throw ProviderError.notFound(provider: configuration.id, section: section.key, detail: "V2EX has no topic \(id)")
        }
        let replies = try parser.replies(repliesBytes, topicID: id, topicTitle: topic.title, section: section.key)
        return SectionFetch(section: describe(section, "V2EX › \(topic.title)"), items: [topic] + replies)
    }

    private func describe(_ section: SectionSpec, _ title: String) -> Section {
        Section(provider: configuration.id, key: section.key, title: title)
    }

    /// GETs `path` conditionally, turning V2EX's ways of refusing into clear errors.
    private func get(_ path: String, section: SectionSpec, context: ProviderContext) async throws -> [UInt8]? {
        do {
            guard let response = try await context.get(apiURL + path, headers: [("Accept", "application/json")]) else { return nil }
            if let location = URLComponents(string: response.url)?.path, location.hasPrefix("/signin") {
                throw ProviderError.needsSignIn(
                    provider: configuration.id, section: section.key, detail: "V2EX redirected to its sign-in page")
            }
            return response.body
        } catch HTTPError.status(let url, let code, let excerpt) where code == 403 {
            throw ProviderError.blocked(
                provider: configuration.id, section: section.key, detail: "blocked by V2EX's CDN (HTTP 403 from \(url)): \(excerpt)")
        }
    }

    /// GETs `path` without validators, for the half of a topic that did not change.
    private func forceGet(_ path: String, section: SectionSpec, context: ProviderContext) async throws -> [UInt8] {
        let response = try await context.http.send(HTTPRequest(url: apiURL + path, headers: [("Accept", "application/json")]))
        guard (200..<300).contains(response.status) else {
            throw HTTPError.status(
                url: SecretRedactor.redact(url: apiURL + path), code: response.status, excerpt: HTTPErrorExcerpt.make(response.body))
        }
        return response.body
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))) ?? text
    }
}
