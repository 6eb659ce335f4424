import Aggregator
import ArgumentParser
import Foundation

/// `aggr import-opml FILE`: add every feed of an OPML subscription list as a feed provider.
struct ImportOPMLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-opml",
        abstract: "Add the feeds of an OPML file to providers.json as feed providers.",
        discussion: "Feeds already configured (same URL) are skipped; other entries and their order are kept.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The OPML file.")
    var file: String

    @Flag(help: "Only print what would be added.")
    var dryRun = false

    func run() async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIFailure(message: "\(file): cannot be read", exitCode: CLIFailure.dataError)
            }
            let subscriptions: [OPML.Subscription]
            do {
                subscriptions = try OPML.subscriptions(in: [UInt8](data), file: file)
            } catch {
                throw CLIFailure(message: "\(error)", exitCode: CLIFailure.dataError)
            }
            let path = context.locator.configPath(explicit: global.config) ?? "\(context.locator.configDirectory)/providers.json"
            let editor = ConfigEditor(path: path, registry: context.registry)
            let document = try editor.document()
            var entries = ConfigEditor.providers(of: document)
            var taken = Set(entries.compactMap { $0["id"]?.stringValue })
            var known = Set(entries.compactMap { $0["options"]?["url"]?.stringValue })
            for entry in entries {
                if case .array(let sections)? = entry["sections"] {
                    for case .string(let section) in sections where section.hasPrefix("url/") { known.insert(String(section.dropFirst(4))) }
                }
            }
            var added: [String] = []
            for subscription in subscriptions where known.insert(subscription.feedURL).inserted {
                let base = subscription.title.isEmpty ? (URLComponents(string: subscription.feedURL)?.host ?? "feed") : subscription.title
                let id = ConfigEditor.uniqueID(from: base, taken: taken)
                taken.insert(id)
                entries.append(
                    .object([
                        JSONMember("id", .string(id)), JSONMember("type", .string("feed")),
                        JSONMember("options", .object([JSONMember("url", .string(subscription.feedURL))])),
                    ]))
                added.append("\(id) \(subscription.feedURL)")
            }
            for line in added { context.print((dryRun ? "would add " : "added ") + TerminalText.sanitize(line) + "\n") }
            let skipped = subscriptions.count - added.count
            if !dryRun, !added.isEmpty { _ = try editor.save(ConfigEditor.replacingProviders(in: document, with: entries)) }
            context.notice(
                "\(added.count) feed\(added.count == 1 ? "" : "s") \(dryRun ? "to add" : "added") to \(path), \(skipped) already configured"
            )
        }
    }
}
