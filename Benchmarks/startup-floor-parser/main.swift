// The start-up floor of the command-line parser aggr keeps: a static Swift program with
// Foundation and ArgumentParser, built and linked as aggr's release is, whose root command
// has a version and a default subcommand declaring the kinds of options `aggr timeline`
// declares. It parses and prints one line, nothing else: what `make bench` measures
// `aggr --version` and `aggr timeline` against beside the sqlite3 shell.
import ArgumentParser
import Foundation

/// The options every aggr command shares.
struct FloorGlobals: ParsableArguments {
    @Option(help: "A file.") var config: String?
    @Option(help: "A database.") var db: String?
    @Option(help: "A user.") var user: String?
}

/// The output formats, an enum option with a default as aggr's `--format`.
enum FloorFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, ndjson, tsv
}

/// The default subcommand, with the option kinds of `aggr timeline`.
struct FloorListing: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timeline", abstract: "List.")

    @OptionGroup var globals: FloorGlobals
    @Argument(help: "A view.") var view: String?
    @Option(name: .shortAndLong, help: "A filter.") var `where`: String?
    @Flag(help: "All.") var all = false
    @Option(name: .shortAndLong, help: "Items per page.") var limit: Int?
    @Option(help: "Page.") var page: Int = 1
    @Option(help: "Cursor.") var cursor: String?
    @Option(name: [.customShort("p"), .long], parsing: .singleValue, help: "Provider.") var provider: [String] = []
    @Option(parsing: .singleValue, help: "Section.") var section: [String] = []
    @Option(parsing: .singleValue, help: "Kind.") var kind: [String] = []
    @Option(help: "Since.") var since: String?
    @Flag(help: "Unread.") var unread = false
    @Flag(help: "Saved.") var saved = false
    @Flag(help: "Every copy.") var noDedupe = false
    @Option(help: "Format.") var format: FloorFormat = .text

    func run() {
        print("startup-floor-parser \(limit ?? 40) \(format.rawValue)")
    }
}

/// A second subcommand, so the root is a command tree as aggr's is.
struct FloorOther: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "other", abstract: "Other.")

    func run() {}
}

/// The root: a version and a default subcommand.
struct FloorRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup-floor-parser", version: "1", subcommands: [FloorListing.self, FloorOther.self],
        defaultSubcommand: FloorListing.self)
}

FloorRoot.main()
