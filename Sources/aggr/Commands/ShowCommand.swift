import Aggregator
import ArgumentParser
import ConsoleFrontEnd

/// `aggr show ITEM`: one item in full.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show items in full, content as readable text.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Item numbers from the timeline, or provider:id.")
    var items: [String]

    @Option(help: "Output format: text, json, ndjson or tsv.")
    var format: OutputFormat = .text

    func validate() throws {
        if items.isEmpty { throw ValidationError("name at least one item") }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session()
            let found = try context.resolve(items, in: session)
            if format == .text {
                let renderer = ItemDetailRenderer(terminal: context.terminal, now: context.now)
                let done = try ItemActions(session: session).states(of: found.map(\.ref))
                context.print(found.map { renderer.render($0, done: done[$0.ref] ?? []) }.joined(separator: "\n"))
            } else {
                context.print(TimelineRenderer(terminal: context.terminal, now: context.now).render(found, format: format))
            }
        }
    }
}
