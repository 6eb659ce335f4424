import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr filter test EXPR`: try a filter on what is stored before saving it in the config.
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter", abstract: localized("Work with filter expressions."), subcommands: [FilterTestCommand.self])
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
