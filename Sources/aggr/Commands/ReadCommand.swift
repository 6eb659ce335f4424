import Aggregator
import ArgumentParser

/// `aggr read ITEM…|--all`: mark items read (or unread again).
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Mark items read.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Item numbers from the timeline, or provider:id.")
    var items: [String] = []

    @Flag(help: "Mark every unread item read.")
    var all = false

    @Option(name: [.customShort("p"), .long], parsing: .singleValue, help: "With --all: only this provider id (repeatable).")
    var provider: [String] = []

    @Flag(help: "Mark the named items unread instead.")
    var unread = false

    func validate() throws {
        if all == !items.isEmpty { throw ValidationError("name items or pass --all, not both or neither") }
        if all && unread { throw ValidationError("--unread works on named items only") }
        if !all && !provider.isEmpty { throw ValidationError("--provider goes with --all") }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session()
            if all {
                let count = try session.markAllRead(providers: provider)
                context.notice("marked \(count) item\(count == 1 ? "" : "s") read")
            } else {
                let found = try context.resolve(items, in: session)
                let count = try session.setRead(found.map(\.ref), !unread)
                context.notice("marked \(count) item\(count == 1 ? "" : "s") \(unread ? "unread" : "read")")
            }
        }
    }
}
