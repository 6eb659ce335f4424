import Aggregator
import ArgumentParser

/// `aggr prune`: apply retention, or delete named items; removed items never come back.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: localized("Remove old items by the retention policy, or the named items."),
        discussion: localized("Removed items are remembered (tombstoned) so a refresh does not store them again."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("Items to delete (numbers or provider:id); without them the retention policy applies.")))
    var items: [String] = []

    @Option(help: ArgumentHelp(localized("Keep at most this many items per provider (default: retention.max_items).")))
    var maxItems: Int?

    @Option(help: ArgumentHelp(localized("Remove items published longer ago than this, e.g. 90d (default: retention.max_age).")))
    var maxAge: String?

    @Flag(help: ArgumentHelp(localized("Also remove items of providers no longer in the config.")))
    var orphans = false

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            if !items.isEmpty {
                let session = try context.session()
                let found = try context.resolve(items, in: session)
                let count = try session.remove(found.map(\.ref))
                context.notice(localized("removed \(count) item", plural: "removed \(count) items", count: count))
                return
            }
            let configuration = try orphans ? context.configuration() : context.optionalConfiguration()
            var policy = configuration?.retention ?? RetentionPolicy()
            if let maxItems {
                guard maxItems >= 1 else {
                    throw CLIFailure(message: localized("--max-items must be at least 1"), exitCode: CLIFailure.usage)
                }
                policy.maxItemsPerProvider = maxItems
            }
            if let maxAge {
                guard let span = TimeSpan(parsing: maxAge), span.seconds > 0 else {
                    throw CLIFailure(
                        message: localized("--max-age: bad duration \"\(maxAge)\" (write e.g. 30d, 12w)"), exitCode: CLIFailure.usage)
                }
                policy.maxAge = span
            }
            let session = try context.session(configuration)
            let result = try session.prune(policy, orphans: orphans)
            context.notice(
                localized("removed \(result.total) item", plural: "removed \(result.total) items", count: result.total)
                    + localized(
                        " (\(result.byAge) by age, \(result.byCount) over the per-provider limit, \(result.byRequest) of removed providers)"
                    )
                    + (result.forgottenTombstones == 0
                        ? ""
                        : localized(
                            "; forgot \(result.forgottenTombstones) removed item no refresh has met for 90 days",
                            plural: "; forgot \(result.forgottenTombstones) removed items no refresh has met for 90 days",
                            count: result.forgottenTombstones))
            )
        }
    }
}
