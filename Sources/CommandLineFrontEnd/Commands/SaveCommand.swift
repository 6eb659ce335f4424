import Aggregator
import ArgumentParser

/// `aggr save ITEM…`: save (star) items, or unsave them; saved items outlive retention.
struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: localized("Save (star) items; `aggr timeline --saved` lists them and prune keeps them."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("Item numbers from the timeline, or provider:id.")))
    var items: [String]

    @Flag(help: ArgumentHelp(localized("Unsave the named items instead.")))
    var unsave = false

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session()
            let found = try context.resolve(items, in: session)
            let count = try session.setSaved(found.map(\.ref), !unsave)
            context.notice(
                unsave
                    ? localized("unsaved \(count) item", plural: "unsaved \(count) items", count: count)
                    : localized("saved \(count) item", plural: "saved \(count) items", count: count))
        }
    }
}
