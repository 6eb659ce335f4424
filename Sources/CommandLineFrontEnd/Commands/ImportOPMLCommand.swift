import Aggregator
import ArgumentParser
import Foundation

/// `aggr import-opml FILE`: add every feed of an OPML subscription list as a feed provider.
struct ImportOPMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-opml",
        abstract: localized("Add the feeds of an OPML file to providers.json as feed providers."),
        discussion: localized("Feeds already configured (same URL) are skipped; other entries and their order are kept."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The OPML file.")))
    var file: String

    @Flag(help: ArgumentHelp(localized("Only print what would be added.")))
    var dryRun = false

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIFailure(message: localized("\(file): cannot be read"), exitCode: CLIFailure.dataError)
            }
            let subscriptions: [OPML.Subscription]
            do {
                subscriptions = try OPML.subscriptions(in: [UInt8](data), file: file)
            } catch {
                throw CLIFailure(message: "\(error)", exitCode: CLIFailure.dataError)
            }
            var entries = try ProviderEntries(path: context.editablePath, registry: context.registry)
            let added = entries.importSubscriptions(subscriptions)
            for (id, url) in added {
                context.print(
                    (dryRun
                        ? localized("would add \(TerminalText.sanitize("\(id) \(url)"))")
                        : localized("added \(TerminalText.sanitize("\(id) \(url)"))")) + "\n")
            }
            if !dryRun, !added.isEmpty { try entries.save() }
            context.notice(
                (dryRun
                    ? localized(
                        "\(added.count) feed to add to \(entries.path)", plural: "\(added.count) feeds to add to \(entries.path)",
                        count: added.count)
                    : localized(
                        "\(added.count) feed added to \(entries.path)", plural: "\(added.count) feeds added to \(entries.path)",
                        count: added.count))
                    + localized(", ", context: "list separator")
                    + localized("\(subscriptions.count - added.count) already configured"))
        }
    }
}
