import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr timeline`: the merged timeline, newest first.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: localized("Show the merged timeline, newest first."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("A named view from the config's views.")))
    var view: String?

    @Option(name: .shortAndLong, help: "Only items matching this filter, e.g. 'title ~ \"swift\" and replies > 5'.")
    var `where`: String?

    @Flag(help: ArgumentHelp(localized("Also show what the config's include/exclude filters hide.")))
    var all = false

    @Option(name: .shortAndLong, help: ArgumentHelp(localized("Items per page (default: timeline.limit from config, else 40).")))
    var limit: Int?

    @Option(help: ArgumentHelp(localized("Page number, starting at 1.")))
    var page: Int = 1

    @Option(help: ArgumentHelp(localized("Continue after this position (printed after a full page).")))
    var cursor: String?

    @Option(
        name: [.customShort("p"), .long], parsing: .singleValue,
        help: ArgumentHelp(localized("Only this provider id (repeatable, or comma-separated).")))
    var provider: [String] = []

    @Option(parsing: .singleValue, help: ArgumentHelp(localized("Only this section key, e.g. node/swift (repeatable).")))
    var section: [String] = []

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp(localized("Only this kind: \(ItemKind.allCases.map(\.rawValue).joined(separator: ", ")) (repeatable).")))
    var kind: [String] = []

    @Option(help: ArgumentHelp(localized("Only items newer than a duration (24h, 7d) or since a date (2026-11-01).")))
    var since: String?

    @Flag(help: ArgumentHelp(localized("Only unread items.")))
    var unread = false

    @Flag(help: ArgumentHelp(localized("Only saved (starred) items.")))
    var saved = false

    @Flag(help: ArgumentHelp(localized("Show every copy of a page reached through several providers.")))
    var noDedupe = false

    @Option(help: ArgumentHelp(localized("Output format: text, json, ndjson or tsv.")))
    var format: OutputFormat = .text

    func validate() throws {
        guard (limit ?? 1) >= 1, (limit ?? 1) <= 10_000 else { throw ValidationError(localized("--limit must be from 1 to 10000")) }
        guard page >= 1 else { throw ValidationError(localized("--page starts at 1")) }
        if cursor != nil, page != 1 { throw ValidationError(localized("use either --page or --cursor, not both")) }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.optionalConfiguration()
            var request = TimelineRequest()
            request.view = view
            request.expression = `where`
            request.showHidden = all
            request.limit = limit
            request.page = page - 1
            request.providers = provider.flatMap { $0.split(separator: ",").map(String.init) }
            request.sections = section
            request.kinds = kind
            request.since = since
            request.cursor = cursor
            request.unreadOnly = unread
            request.savedOnly = saved
            request.dedupe = !noDedupe
            let session = try context.session(configuration, readingOnly: true)
            // The session's config also holds the user's own views (a database with users).
            let withViews = session.configuration
            let query = try request.checked(
                configuration: configuration == nil && withViews.views.isEmpty ? nil : withViews, now: context.now)
            let page = try session.timeline(query)
            let renderer = TimelineRenderer(terminal: context.terminal, now: context.now)
            context.print(renderer.render(page.items, format: format))
            if page.items.isEmpty {
                let stored = try session.storedItemCount()
                context.notice(stored == 0 ? localized("nothing stored yet: run `aggr refresh`") : localized("no items match"))
            } else if let next = page.nextCursor, format == .text {
                context.notice(localized("more: aggr timeline --cursor \(next)"))
            }
        }
    }

}

extension TimelineRequest {
    /// The query, or a usage error naming the option at fault (exit 64).
    func checked(configuration: Configuration?, now: Date) throws -> TimelineQuery {
        do {
            return try query(configuration: configuration, now: now)
        } catch {
            let option: String
            switch error {
            case .unknownKind: option = "--kind: "
            case .invalidSince: option = "--since: "
            case .invalidCursor: option = "--cursor: "
            case .selection(.invalidFilter): option = "--where: "
            case .selection(.unknownView): option = ""
            }
            throw CLIFailure(message: option + error.description, exitCode: CLIFailure.usage)
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
