import Aggregator
import ArgumentParser
import Foundation
import PostgresStorage
import Providers
import WebFrontEnd

/// `aggr-serve`: the server behind `aggr serve`, which resolves the config and database
/// and runs this binary with them (it is its own binary so no other command pays for
/// SwiftNIO at start-up).
@main
struct ServeMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggr-serve", abstract: localized("The web UI, feeds and reader API of aggr (run it as `aggr serve`)."))

    @Option(help: ArgumentHelp(localized("The providers.json to use."), valueName: "file"))
    var config: String

    @Option(
        help: ArgumentHelp(localized("The database to use: a SQLite file, or postgres://user@host/database."), valueName: "file|url"))
    var db: String

    @Option(
        help: ArgumentHelp(
            localized("On PostgreSQL, the user whose read and saved state to use (default: the only user, or $USER)."),
            valueName: "name"))
    var user: String?

    @Option(help: ArgumentHelp(localized("host:port to listen on (default: serve.listen, else 127.0.0.1:8080)."), valueName: "address"))
    var listen: String?

    @Flag(help: ArgumentHelp(localized("Serve what is stored without refreshing (no scheduler).")))
    var noRefresh = false

    @Flag(help: ArgumentHelp(localized("Replace the secret reader-app and form tokens are signed with, then exit.")))
    var rotateTokens = false

    @Option(
        help: ArgumentHelp(
            localized("The language of the log and of pages a browser states none for (en, zh-Hans)."), valueName: "language"))
    var lang: String?

    func run() async throws {
        let environment = ProcessEnvironment.variables
        let write: @Sendable (String) -> Void = { StandardStream.error.write($0 + "\n") }
        do {
            try? Localization.use(Localization.choose(flag: lang, configured: nil, environment: environment))
            let configuration = try ConfigLoader(registry: BuiltinProviders.registry).load(
                path: config, displayName: (config as NSString).lastPathComponent)
            do {
                try Localization.use(Localization.choose(flag: lang, configured: configuration.language, environment: environment))
            } catch let error as LanguageError {
                write("aggr: \(error)")
                throw ExitCode(64)
            }
            let text = listen ?? configuration.serve.listen ?? "127.0.0.1:8080"
            guard let address = ListenAddress(parsing: text) else {
                write("aggr: " + localized("--listen: \"\(text)\" is not host:port (such as 127.0.0.1:8080)"))
                throw ExitCode(64)
            }
            var server = WebServer(
                configuration: configuration, configPath: config, databasePath: db, listen: address, refresh: !noRefresh,
                registry: BuiltinProviders.registry, environment: environment)
            server.servers = [PostgresServer(user: user)]
            if rotateTokens {
                write("aggr: " + (try server.rotateTokens()))
                return
            }
            try await server.run(log: write)
        } catch let error as ConfigError {
            write("aggr: \(error)")
            throw ExitCode(78)
        } catch let refusal as WebServer.Refusal {
            write("aggr: \(refusal)")
            throw ExitCode(refusal.exitCode)
        } catch let error as StoreError {
            write("aggr: \(error)")
            throw ExitCode.failure
        }
    }
}
