import Aggregator
import ArgumentParser
import Foundation

/// `aggr import-opml FILE`: add every feed of an OPML subscription list as a feed provider.
struct ImportOPMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-opml",
        abstract: "Add the feeds of an OPML file to providers.json as feed providers.",
        discussion: "Feeds already configured (same URL) are skipped; other entries and their order are kept.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The OPML file.")
    var file: String

    @Flag(help: "Only print what would be added.")
    var dryRun = false

    func run() throws {
        try runReporting {
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
            var entries = try ProviderEntries(path: context.editablePath, registry: context.registry)
            let added = entries.importSubscriptions(subscriptions)
            for (id, url) in added { context.print((dryRun ? "would add " : "added ") + TerminalText.sanitize("\(id) \(url)") + "\n") }
            if !dryRun, !added.isEmpty { try entries.save() }
            context.notice(
                "\(added.count) feed\(added.count == 1 ? "" : "s") \(dryRun ? "to add" : "added") to \(entries.path), "
                    + "\(subscriptions.count - added.count) already configured")
        }
    }
}
