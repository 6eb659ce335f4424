import Aggregator
import ArgumentParser

/// `aggr read ITEM…|--all`: mark items read (or unread again).
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: localized("Mark items read."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("Item numbers from the timeline, or provider:id.")))
    var items: [String] = []

    @Flag(help: ArgumentHelp(localized("Mark every unread item read.")))
    var all = false

    @Option(
        name: [.customShort("p"), .long], parsing: .singleValue,
        help: ArgumentHelp(localized("With --all: only this provider id (repeatable).")))
    var provider: [String] = []

    @Flag(help: ArgumentHelp(localized("Mark the named items unread instead.")))
    var unread = false

    func validate() throws {
        if all == !items.isEmpty { throw ValidationError(localized("name items or pass --all, not both or neither")) }
        if all && unread { throw ValidationError(localized("--unread works on named items only")) }
        if !all && !provider.isEmpty { throw ValidationError(localized("--provider goes with --all")) }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session()
            if all {
                let count = try session.markAllRead(providers: provider)
                context.notice(localized("marked \(count) item read", plural: "marked \(count) items read", count: count))
            } else {
                let found = try context.resolve(items, in: session)
                let count = try session.setRead(found.map(\.ref), !unread)
                context.notice(
                    unread
                        ? localized("marked \(count) item unread", plural: "marked \(count) items unread", count: count)
                        : localized("marked \(count) item read", plural: "marked \(count) items read", count: count))
            }
        }
    }
}
