import Aggregator
import ArgumentParser
import Foundation
import Providers

/// `aggr add <url>`: follow a site by its address.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Follow a page by its address: V2EX, GitHub, Gitee and Dribbble pages, feeds, or pages that advertise a feed.",
        discussion:
            "A known site's page becomes a section of that site's provider (added to an existing entry of that type when there is one).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The address, such as https://www.v2ex.com/go/swift or https://blog.example.com/")
    var url: String

    @Flag(help: "Only print what would be added.")
    var dryRun = false

    func run() async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            guard WebURL.isHTTP(url) else {
                throw CLIFailure(message: "\"\(url)\" is not an http or https address", exitCode: CLIFailure.usage)
            }
            let editing = ConfigEditing(context: context)
            let match: SiteRecognizer.Match?
            do {
                match = try SiteRecognizer.match(url)
            } catch {
                throw CLIFailure(message: "\(error)", exitCode: 1)
            }
            let editor = ConfigEditor(path: editing.path, registry: context.registry)
            let document = try editor.document()
            var entries = ConfigEditor.providers(of: document)
            let description: String
            if let match {
                description = add(match, to: &entries)
            } else {
                let feed = try await findFeed(context: context)
                if entries.contains(where: { $0["options"]?["url"]?.stringValue == feed.url }) {
                    context.notice("\(feed.url) is already followed; nothing added")
                    return
                }
                let taken = Set(entries.compactMap { $0["id"]?.stringValue })
                let id = ConfigEditor.uniqueID(
                    from: feed.title.isEmpty ? (URLComponents(string: feed.url)?.host ?? "feed") : feed.title, taken: taken)
                entries.append(
                    .object([
                        JSONMember("id", .string(id)), JSONMember("type", .string("feed")),
                        JSONMember("options", .object([JSONMember("url", .string(feed.url))])),
                    ]))
                description = "provider \(id) (feed \(feed.url))"
            }
            if dryRun {
                context.print("would add \(description)\n")
                return
            }
            _ = try editor.save(ConfigEditor.replacingProviders(in: document, with: entries))
            context.print("added \(description) in \(editing.path)\n")
        }
    }

    /// Adds `match` to the first entry of its type on the default site, or as a new entry.
    func add(_ match: SiteRecognizer.Match, to entries: inout [JSONValue]) -> String {
        if let index = entries.firstIndex(where: { $0["type"]?.stringValue == match.type && $0["api_url"] == nil && $0["web_url"] == nil }),
            case .object(var members) = entries[index]
        {
            let id = members.first { $0.key == "id" }?.value.stringValue ?? match.type
            var sections: [JSONValue] = []
            if case .array(let existing)? = entries[index]["sections"] { sections = existing }
            if sections.contains(.string(match.section)) { return "nothing: \(id) already has \(match.section)" }
            sections.append(.string(match.section))
            members.removeAll { $0.key == "sections" }
            members.insert(JSONMember("sections", .array(sections)), at: min(2, members.count))
            entries[index] = .object(members)
            return "section \(match.section) to \(id)"
        }
        let id = ConfigEditor.uniqueID(from: match.type, taken: Set(entries.compactMap { $0["id"]?.stringValue }))
        entries.append(
            .object([
                JSONMember("id", .string(id)), JSONMember("type", .string(match.type)),
                JSONMember("sections", .array([.string(match.section)])),
            ]))
        return "provider \(id) (\(match.type) \(match.section))"
    }

    /// The feed at `url`, or the first one the page at `url` advertises.
    func findFeed(context: CommandContext) async throws -> (url: String, title: String) {
        let client = CurlHTTPClient()
        let response = try await client.send(
            HTTPRequest(url: url, headers: [("Accept", "application/atom+xml, application/rss+xml, text/html;q=0.9, */*;q=0.8")]))
        guard (200..<300).contains(response.status) else {
            throw CLIFailure(message: "\(SecretRedactor.redact(url: url)) answered HTTP \(response.status)", exitCode: 1)
        }
        if let feed = try? FeedParser(url: response.url).parse(response.body), !feed.entries.isEmpty || !feed.title.isEmpty {
            return (response.url, feed.title)
        }
        guard let advertised = SiteRecognizer.advertisedFeeds(in: response.body, pageURL: response.url).first else {
            throw CLIFailure(
                message:
                    "no feed at \(SecretRedactor.redact(url: url)) and the page advertises none; the html type can read it with selectors (docs/providers.md)",
                exitCode: 1)
        }
        let feedResponse = try await client.send(HTTPRequest(url: advertised))
        let title = (try? FeedParser(url: advertised).parse(feedResponse.body))?.title ?? ""
        return (advertised, title)
    }
}
