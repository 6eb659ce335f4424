import Aggregator
import ArgumentParser
import Foundation

/// The `aggr` command: one merged, filterable timeline of many forums.
struct Aggr: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggr",
        abstract: localized("One merged, filterable timeline of V2EX, GitHub, Gitee, Dribbble and any feed."),
        discussion: localized(
            """
            Config: --config, $AGGR_CONFIG, ./providers.json, then $XDG_CONFIG_HOME/aggr/providers.json.
            Database: --db, $AGGR_DB, then $XDG_DATA_HOME/aggr/aggr.sqlite.
            Language: --lang (en, zh-Hans), the config's "language", then LC_ALL, LC_MESSAGES, LANG.
            """),
        version: AggregatorVersion.current,
        subcommands: [
            TimelineCommand.self, RefreshCommand.self, ShowCommand.self, ReadCommand.self, SaveCommand.self, ProvidersCommand.self,
            TypesCommand.self,
            SearchCommand.self, FilterCommand.self, AddCommand.self, InitCommand.self, PruneCommand.self, ImportCommand.self,
            ImportOPMLCommand.self,
            ExportCommand.self, WatchCommand.self, NotifyCommand.self, ServeCommand.self, TuiCommand.self,
            ReplyCommand.self, ThankCommand.self, FavouriteCommand.self, LikeCommand.self, StarCommand.self, ReactCommand.self,
            CheckinCommand.self, MigrateCommand.self, UsersCommand.self,
        ],
        defaultSubcommand: TimelineCommand.self
    )
}

/// Options every command that touches config or data accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(localized("The providers.json to use."), valueName: "file"))
    var config: String?

    @Option(
        name: .long,
        help: ArgumentHelp(localized("The database to use: a SQLite file, or postgres://user@host/database."), valueName: "file|url"))
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            localized("On PostgreSQL, the user whose read and saved state to use (default: the only user, or $USER)."),
            valueName: "name"))
    var user: String?
}

/// Errors the CLI reports itself, each with the exit code it ends with.
struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    var description: String { message }

    /// Exit codes from sysexits.h, which scripts around aggr may rely on.
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let configError: Int32 = 78
}
