import Aggregator
import ArgumentParser
import ConsoleFrontEnd

/// `aggr show ITEM`: one item in full.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: localized("Show items in full, content as readable text."),
        discussion: """
            --full reads the item's page (no cookie or token sent, 5 MB at most, tracking parameters removed) and shows \
            the article found there, kept with the item for next time; --refetch reads the page again.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("Item numbers from the timeline, or provider:id.")))
    var items: [String]

    @Option(help: ArgumentHelp(localized("Output format: text, json, ndjson or tsv.")))
    var format: OutputFormat = .text

    @Flag(help: ArgumentHelp(localized("The full text: the article of the item's page.")))
    var full = false

    @Flag(help: ArgumentHelp(localized("With --full, read the page again even when its article is kept.")))
    var refetch = false

    func validate() throws {
        if items.isEmpty { throw ValidationError(localized("name at least one item")) }
        if refetch && !full { throw ValidationError(localized("--refetch goes with --full")) }
        if full && format != .text { throw ValidationError(localized("--full shows text only")) }
    }

    func run() async throws {
        var failed = false
        try await runReporting {
            let context = CommandContext(options: global)
            let session = try context.session()
            let found = try context.resolve(items, in: session)
            guard format == .text else {
                context.print(TimelineRenderer(terminal: context.terminal, now: context.now).render(found, format: format))
                return
            }
            let renderer = ItemDetailRenderer(terminal: context.terminal, now: context.now)
            let done = try ItemActions(session: session).states(of: found.map(\.ref))
            var pages: [String] = []
            for stored in found {
                var article: Article?
                if full {
                    do {
                        article = try await session.fullText(of: stored, refetch: refetch)
                    } catch let error as FullTextError {
                        context.notice(localized("aggr: full text of \(stored.ref): \(error)"))
                        failed = true
                    }
                }
                pages.append(renderer.render(stored, done: done[stored.ref] ?? [], article: article))
            }
            context.print(pages.joined(separator: "\n"))
        }
        if failed { throw ExitCode(1) }
    }
}
