import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr filter test EXPR`: try a filter on what is stored; `aggr filter save NAME EXPR`:
/// keep it as a view.
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter", abstract: localized("Work with filter expressions."),
        subcommands: [FilterTestCommand.self, FilterSaveCommand.self])
}

/// `aggr filter save NAME EXPR`: a view of your own on a database with users, else one in
/// providers.json; `--remove` takes it away.
struct FilterSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: localized("Save a filter as a view: your own on a database with users, else in providers.json."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The view's name (a-z, 0-9, - and _).")))
    var name: String

    @Argument(help: ArgumentHelp(localized("The filter, e.g. 'provider = v2ex and replies > 10'.")))
    var expression: String?

    @Flag(help: ArgumentHelp(localized("Remove the view instead.")))
    var remove = false

    func validate() throws {
        if remove, expression != nil { throw ValidationError(localized("--remove takes no filter")) }
        if !remove, expression == nil { throw ValidationError(localized("give the filter to save, or --remove")) }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session(try context.optionalConfiguration())
            if remove {
                try session.removeView(name)
                context.notice(localized("removed view \(name)"))
                return
            }
            let place: LibrarySession.ViewPlace
            do {
                place = try session.saveView(name, filter: expression ?? "")
            } catch let error as FilterError {
                throw CLIFailure(message: "\(error)", exitCode: CLIFailure.usage)
            }
            switch place {
            case .user(let user): context.notice(localized("saved view \(name) for \(user): aggr timeline \(name)"))
            case .config(let file): context.notice(localized("saved view \(name) in \(file): aggr timeline \(name)"))
            }
        }
    }
}

/// `aggr filter test EXPR`: how many stored items match, per provider, with a sample.
struct FilterTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: localized("Show how many stored items a filter matches per provider, with a sample."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The filter, e.g. 'kind = release and provider in [github, gitee]'.")
    var expression: String

    @Option(help: ArgumentHelp(localized("Sample items to show.")))
    var sample: Int = 5

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let parsed: [FilterExpression]
            do {
                parsed = try ItemSelection(configuration: nil, view: nil, expression: expression, showHidden: true).filters
            } catch {
                throw CLIFailure(message: "\(error)", exitCode: CLIFailure.usage)
            }
            let session = try context.session()
            let counts = try session.count(matching: parsed[0])
            var rows = [["PROVIDER", "MATCHING", "STORED"]]
            for count in counts { rows.append([count.provider, String(count.matching), String(count.total)]) }
            rows.append(["total", String(counts.reduce(0) { $0 + $1.matching }), String(counts.reduce(0) { $0 + $1.total })])
            var output = ProviderTable.align(rows, width: context.terminal.width)
            var query = TimelineQuery()
            query.limit = max(1, min(sample, 50))
            query.filters = parsed
            query.now = context.now
            query.dedupe = false
            let matches = try session.timeline(query).items
            if !matches.isEmpty {
                output +=
                    localized("\nnewest matches:\n")
                    + TimelineRenderer(terminal: context.terminal, now: context.now).render(matches, format: .text)
            }
            context.print(output)
        }
    }
}
