import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr search QUERY`: full-text search over titles, summaries, authors and tags.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: localized("Search stored items (title, summary, author, tags), best match first."),
        discussion: localized(
            "Every word must match. Chinese and Japanese work without spaces: the index stores two-character pieces of CJK text."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The words to find.")))
    var query: [String]

    @Option(
        name: [.customShort("p"), .long], parsing: .singleValue,
        help: ArgumentHelp(localized("Only this provider id (repeatable, or comma-separated).")))
    var provider: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp(localized("Only items matching this filter too.")))
    var `where`: String?

    @Flag(help: ArgumentHelp(localized("Also search what the config's include/exclude filters hide.")))
    var all = false

    @Option(name: .shortAndLong, help: ArgumentHelp(localized("Results to show.")))
    var limit: Int = 20

    @Option(help: ArgumentHelp(localized("Output format: text, json, ndjson or tsv.")))
    var format: OutputFormat = .text

    func validate() throws {
        if query.joined().trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError(localized("give words to search for")) }
        guard (1...1_000).contains(limit) else { throw ValidationError(localized("--limit must be from 1 to 1000")) }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.optionalConfiguration()
            let selection = try FilterOptions(view: nil, where: `where`, all: all).selection(configuration)
            let text = query.joined(separator: " ")
            var scope = TimelineQuery()
            scope.providers = provider.flatMap { $0.split(separator: ",").map(String.init) }
            scope.now = context.now
            let session = try context.session(configuration, readingOnly: true)
            let results = try session.search(text, in: selection.applied(to: scope), limit: limit)
            let renderer = TimelineRenderer(terminal: context.terminal, now: context.now)
            guard format == .text else {
                context.print(renderer.render(results, format: format))
                return
            }
            if results.isEmpty {
                context.notice(localized("no stored item matches \"\(TerminalText.sanitize(text))\""))
                return
            }
            let rows = renderer.render(results, format: .text).split(separator: "\n", omittingEmptySubsequences: false)
            var output = ""
            for (index, stored) in results.enumerated() {
                output += rows[index] + "\n"
                if let snippet = SearchSnippet.make(
                    of: stored.item, query: text, width: max(30, context.terminal.width - 8), highlight: context.terminal.color)
                {
                    output += "        " + snippet + "\n"
                }
            }
            context.print(output)
        }
    }
}
