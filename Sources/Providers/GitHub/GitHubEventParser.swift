import Aggregator
import Foundation

/// Maps GitHub events to items with readable titles ("alice pushed 3 commits to main in owner/repo").
///
/// An unknown or retired event type (2012's DownloadEvent) still yields an item.
/// Gitee's events share the shape; its own names (StarEvent, IssueEvent, PullRequestCommentEvent,
/// ProjectCommentEvent), `repo.full_name` and string issue numbers are read too.
public struct GitHubEventParser: Sendable {
    public var provider: String
    public var webURL: String

    public init(provider: String, webURL: String) {
        self.provider = provider
        self.webURL = webURL
    }

    /// A list of events, or a single event object.
    public func events(_ body: [UInt8], section: String) throws(ProviderError) -> [Item] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: body, mode: .upstream)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "not JSON: \(error)")
        }
        let list: [JSONValue]
        switch document {
        case .array(let events): list = events
        case .object: list = [document]
        default: throw ProviderError.unexpectedPayload(detail: localized("expected a list of events"))
        }
        return try list.enumerated().map { index, event throws(ProviderError) in
            guard let id = event["id"]?.stringValue ?? event["id"]?.integerValue.map(String.init), let type = event["type"]?.stringValue
            else {
                throw ProviderError.unexpectedPayload(detail: "event [\(index)] has no id or type")
            }
            return item(event, id: id, type: type, section: section)
        }
    }

    func item(_ event: JSONValue, id: String, type: String, section: String) -> Item {
        let actor = event["actor"]?["login"]?.stringValue ?? event["actor"]?["display_login"]?.stringValue ?? "someone"
        // Gitee's repo.name is the short name; its full_name is GitHub's name.
        let repo = event["repo"]?["full_name"]?.stringValue ?? event["repo"]?["name"]?.stringValue ?? ""
        let payload = event["payload"] ?? .object([])
        let repoURL = "\(webURL)/\(repo)"
        let (title, url) = describe(type: type, actor: actor, repo: repo, repoURL: repoURL, payload: payload)
        var extra = ["event": type]
        if !repo.isEmpty { extra["repo"] = repo }
        let body =
            payload["comment"]?["body"]?.stringValue ?? payload["release"]?["body"]?.stringValue
            ?? payload["issue"]?["title"]?.stringValue ?? payload["pull_request"]?["title"]?.stringValue ?? ""
        return Item(
            provider: provider, section: section, id: "event/\(id)", kind: .event, title: ItemText.title(title), url: url,
            author: Author(name: actor, url: "\(webURL)/\(actor)"), summary: ItemText.summary(MarkdownText.plainText(body)),
            published: event["created_at"]?.stringValue.flatMap { UpstreamDate.parse($0) } ?? Date(timeIntervalSince1970: 0), extra: extra)
    }

    /// The title and web URL of one event.
    func describe(type: String, actor: String, repo: String, repoURL: String, payload: JSONValue) -> (String, String) {
        let action = payload["action"]?.stringValue ?? ""
        let ref = payload["ref"]?.stringValue.map { $0.replacingOccurrences(of: "refs/heads/", with: "") } ?? ""
        func numbered(_ key: String, _ noun: String) -> (String, String) {
            let object = payload[key] ?? .object([])
            // Gitee numbers issues with strings such as "I4CE7W".
            let number = (object["number"]?.integerValue.map(String.init) ?? object["number"]?.stringValue).map { " #\($0)" } ?? ""
            let title = object["title"]?.stringValue.map { ": \($0)" } ?? ""
            var verb = action.isEmpty ? "updated" : action
            if key == "pull_request", action == "closed", object["merged"]?.boolValue == true { verb = "merged" }
            return ("\(actor) \(verb) \(noun)\(number)\(title)", object["html_url"]?.stringValue ?? repoURL)
        }
        switch type {
        case "PushEvent":
            let count = payload["size"]?.integerValue ?? payload["distinct_size"]?.integerValue
            let commits = count.map { " \($0) commit\($0 == 1 ? "" : "s")" } ?? ""
            var url = repoURL
            if let before = payload["before"]?.stringValue, let head = payload["head"]?.stringValue {
                url = "\(repoURL)/compare/\(before.prefix(10))...\(head.prefix(10))"
            }
            return ("\(actor) pushed\(commits) to \(ref) in \(repo)", url)
        case "CreateEvent":
            let kind = payload["ref_type"]?.stringValue ?? "repository"
            if kind == "repository" { return ("\(actor) created repository \(repo)", repoURL) }
            return (
                "\(actor) created \(kind) \(ref) in \(repo)", kind == "tag" ? "\(repoURL)/releases/tag/\(ref)" : "\(repoURL)/tree/\(ref)"
            )
        case "DeleteEvent":
            return ("\(actor) deleted \(payload["ref_type"]?.stringValue ?? "ref") \(ref) in \(repo)", repoURL)
        case "WatchEvent", "StarEvent":
            return ("\(actor) starred \(repo)", repoURL)
        case "ForkEvent":
            let fork = payload["forkee"]?["full_name"]?.stringValue
            return ("\(actor) forked \(repo)" + (fork.map { " to \($0)" } ?? ""), payload["forkee"]?["html_url"]?.stringValue ?? repoURL)
        case "IssuesEvent", "IssueEvent":
            return numbered("issue", "issue")
        case "IssueCommentEvent":
            let (text, _) = numbered("issue", "issue")
            let commented = text.replacingOccurrences(
                of: "\(actor) \(action.isEmpty ? "updated" : action) issue", with: "\(actor) commented on issue")
            return (commented, payload["comment"]?["html_url"]?.stringValue ?? payload["issue"]?["html_url"]?.stringValue ?? repoURL)
        case "PullRequestEvent":
            return numbered("pull_request", "pull request")
        case "PullRequestReviewEvent", "PullRequestReviewCommentEvent", "PullRequestCommentEvent":
            let (text, url) = numbered("pull_request", "pull request")
            return (
                text.replacingOccurrences(
                    of: "\(actor) \(action.isEmpty ? "updated" : action) pull request", with: "\(actor) reviewed pull request"),
                payload["comment"]?["html_url"]?.stringValue ?? payload["review"]?["html_url"]?.stringValue ?? url
            )
        case "ReleaseEvent":
            let release = payload["release"] ?? .object([])
            let name = release["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? release["tag_name"]?.stringValue ?? "a release"
            return (
                "\(actor) \(action.isEmpty ? "published" : action) release \(name) of \(repo)",
                release["html_url"]?.stringValue ?? "\(repoURL)/releases"
            )
        case "MemberEvent":
            let member = payload["member"]?["login"]?.stringValue ?? "a collaborator"
            return ("\(actor) \(action.isEmpty ? "added" : action) \(member) to \(repo)", repoURL)
        case "CommitCommentEvent":
            let sha = payload["comment"]?["commit_id"]?.stringValue.map { String($0.prefix(7)) } ?? ""
            return ("\(actor) commented on commit \(sha) in \(repo)", payload["comment"]?["html_url"]?.stringValue ?? repoURL)
        case "ProjectCommentEvent":
            // Gitee: a comment on the repository's own page.
            return ("\(actor) commented on \(repo)", payload["comment"]?["html_url"]?.stringValue ?? repoURL)
        case "PublicEvent":
            return ("\(actor) made \(repo) public", repoURL)
        case "GollumEvent":
            return ("\(actor) updated the \(repo) wiki", "\(repoURL)/wiki")
        default:
            // Retired or new types: "DownloadEvent" → "download".
            let words = type.replacingOccurrences(of: "Event", with: "").reduce(into: "") { text, character in
                if character.isUppercase, !text.isEmpty { text += " " }
                text += character.lowercased()
            }
            let place = repo.isEmpty ? "" : " in \(repo)"
            return ("\(actor): \(words.isEmpty ? "activity" : words)\(place)", repo.isEmpty ? "\(webURL)/\(actor)" : repoURL)
        }
    }
}
