import Aggregator
import ArgumentParser
import Foundation

/// `aggr export`: the merged, filtered timeline as OPML 2.0, Atom 1.0 or JSON Feed 1.1.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: localized("Write the merged timeline as OPML 2.0, Atom 1.0 or JSON Feed 1.1."))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(localized("opml, atom or jsonfeed.")))
    var format: TimelineDocument.Format

    @Option(name: .shortAndLong, help: ArgumentHelp(localized("Items to export (newest first).")))
    var limit: Int = 200

    @Option(name: [.customShort("p"), .long], parsing: .singleValue, help: ArgumentHelp(localized("Only this provider id (repeatable).")))
    var provider: [String] = []

    @Option(parsing: .singleValue, help: ArgumentHelp(localized("Only this kind (repeatable).")))
    var kind: [String] = []

    @Option(help: ArgumentHelp(localized("Only items newer than a duration (24h, 7d) or since a date (2026-11-01).")))
    var since: String?

    @Flag(help: ArgumentHelp(localized("Only unread items.")))
    var unread = false

    @Option(name: .shortAndLong, help: ArgumentHelp(localized("Only items matching this filter.")))
    var `where`: String?

    @Flag(help: ArgumentHelp(localized("Also export what the config's include/exclude filters hide.")))
    var all = false

    @Option(name: .shortAndLong, help: ArgumentHelp(localized("Write to this file instead of standard output."), valueName: "file"))
    var output: String?

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError(localized("--limit must be from 1 to 100000")) }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.optionalConfiguration()
            var request = TimelineRequest()
            request.limit = limit
            request.providers = provider.flatMap { $0.split(separator: ",").map(String.init) }
            request.kinds = kind
            request.since = since
            request.unreadOnly = unread
            request.expression = `where`
            request.showHidden = all
            let query = try request.checked(configuration: configuration, now: context.now)
            let items = try context.session(configuration).timeline(query).items
            let text = TimelineDocument.render(items, as: format, configuration: configuration, now: context.now)
            if let output {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw CLIFailure(message: localized("\(output): cannot be written (\(error.localizedDescription))"), exitCode: 1)
                }
                context.notice(
                    localized(
                        "exported \(items.count) item to \(output)", plural: "exported \(items.count) items to \(output)",
                        count: items.count))
            } else {
                context.print(text)
            }
        }
    }
}

extension TimelineDocument.Format: ExpressibleByArgument {}
