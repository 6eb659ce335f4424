import Aggregator
import ArgumentParser

/// `aggr migrate --to`: copy the database into another, new one (SQLite ↔ PostgreSQL).
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: localized("Copy the database into a new one: a SQLite file to PostgreSQL, or back."),
        discussion: localized(
            "Items keep their numbers; read and saved state, labels, tombstones, provider state and secrets go along. The target must hold no items yet; on PostgreSQL the state is that of --user."
        ))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(localized("Where to copy to: a SQLite file, or postgres://user@host/database."), valueName: "file|url"))
    var to: String

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session(readingOnly: true)
            let count = try session.copyStorage(to: to, servers: context.servers)
            let shown = StorageAddress.scheme(of: to) == nil ? to : SecretRedactor.redact(url: to)
            context.notice(
                localized("copied \(count.items) item", plural: "copied \(count.items) items", count: count.items)
                    + localized(", \(count.sections) section", plural: ", \(count.sections) sections", count: count.sections)
                    + localized(
                        " and \(count.other) other record into \(shown)", plural: " and \(count.other) other records into \(shown)",
                        count: count.other))
        }
    }
}
