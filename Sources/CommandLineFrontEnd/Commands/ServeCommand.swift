import Aggregator
import ArgumentParser
import Foundation

/// `aggr serve`: the merged timeline in a browser and in feed readers.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: localized("Serve the timeline: a web UI, Atom/JSON feeds per view and provider, OPML."),
        discussion: """
            Listens on 127.0.0.1:8080 unless --listen or serve.listen say otherwise; any other address needs a password \
            (the variable named by serve.password_env). Refreshes in the same process as aggr watch does, unless \
            --no-refresh. Stops on SIGINT or SIGTERM.
            Pages: / (tabs: views, All, providers), /item/N. Feeds: /feeds/all.atom, /feeds/view/NAME.atom, \
            /feeds/provider/ID.json, /feeds/search.atom?q=…, /opml.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(localized("host:port to listen on (port 0 picks a free one)."), valueName: "address"))
    var listen: String?

    @Flag(help: ArgumentHelp(localized("Serve what is stored without refreshing.")))
    var noRefresh = false

    @Flag(
        help: ArgumentHelp(
            localized("Replace the secret reader-app and form tokens are signed with (every app signs in again), then exit.")))
    var rotateTokens = false

    func validate() throws {
        if let listen, ListenAddress(parsing: listen) == nil {
            throw ValidationError(localized("--listen: \"\(listen)\" is not host:port (such as 127.0.0.1:8080)"))
        }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let (path, _) = try context.configurationFile()
            let server = try Self.serverBinary()
            let cwd = FileManager.default.currentDirectoryPath
            func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : "\(cwd)/\(path)" }
            let database = context.databaseIsServer ? context.databasePath : absolute(context.databasePath)
            var arguments = [server, "--config", absolute(path), "--db", database]
            if let user = global.user { arguments += ["--user", user] }
            if let listen { arguments += ["--listen", listen] }
            if noRefresh { arguments.append("--no-refresh") }
            if rotateTokens { arguments.append("--rotate-tokens") }
            if let language = LanguageChoice.flag { arguments += ["--lang", language] }
            let argv = arguments.map { strdup($0) } + [nil]
            execv(server, argv)
            throw CLIFailure(message: localized("cannot run \(server): \(String(cString: strerror(errno)))"), exitCode: 1)
        }
    }

    /// `aggr-serve` beside this binary.
    static func serverBinary() throws -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let candidate = ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent("aggr-serve")
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw CLIFailure(
                message:
                    localized(
                        "\(candidate) is missing: aggr serve runs it (build it with `swift build --product aggr-serve`, or `make install`)"),
                exitCode: 1)
        }
        return candidate
    }
}
