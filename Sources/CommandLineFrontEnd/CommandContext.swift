import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation
import Logging
import Providers
import Synchronization

/// What a command runs with: environment, config lookup, store and terminal.
struct CommandContext {
    let environment: [String: String]
    let locator: ConfigLocator
    let options: GlobalOptions
    let terminal: TerminalProfile
    /// The current time; `AGGR_NOW` (ISO-8601) pins it for reproducible output.
    let now: Date

    init(options: GlobalOptions) {
        let environment = ProcessEnvironment.variables
        self.environment = environment
        self.options = options
        self.locator = ConfigLocator(environment: environment, workingDirectory: FileManager.default.currentDirectoryPath)
        self.terminal = TerminalProfile.standardOutput(environment: environment)
        self.now = environment["AGGR_NOW"].flatMap(ISOTimestamp.parse) ?? Date()
    }

    var registry: ProviderRegistry { BuiltinProviders.registry }

    /// The config file that edits go to: the one found, else providers.json in the config directory.
    var editablePath: String {
        locator.configPath(explicit: options.config) ?? "\(locator.configDirectory)/providers.json"
    }

    /// The config, or nil when no file exists and none was asked for explicitly.
    func optionalConfiguration() throws -> Configuration? {
        let explicit = options.config ?? environment["AGGR_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        guard let path = locator.configPath(explicit: options.config) else { return nil }
        if explicit == nil, !FileManager.default.fileExists(atPath: path) { return nil }
        return try load(path)
    }

    /// The config; a missing file is a config error that lists where aggr looked.
    func configuration() throws -> Configuration {
        try configurationFile().configuration
    }

    /// The config and the path it was read from (which `aggr watch` follows for edits).
    func configurationFile() throws -> (path: String, configuration: Configuration) {
        if let path = locator.configPath(explicit: options.config), FileManager.default.fileExists(atPath: path) {
            return (path, try load(path))
        }
        if let configuration = try optionalConfiguration() { return (configuration.file, configuration) }
        let searched = locator.candidates(explicit: options.config).joined(separator: ", ")
        throw ConfigError(
            file: "providers.json", location: "", message: localized("not found (looked in \(searched)); run `aggr init` to create one"))
    }

    /// The database this command uses: a file path or a server URL.
    var databasePath: String { locator.databasePath(explicit: options.db) }

    /// The server databases `--db` may name, opened as `--user`.
    var servers: [any StorageServer] { storageServers(options.user) }

    /// Whether the database is on a server (several writers share it) rather than a file.
    var databaseIsServer: Bool { StorageAddress.scheme(of: databasePath) != nil }

    private func load(_ path: String) throws -> Configuration {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        let shown = path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
        let configuration = try ConfigLoader(registry: registry).load(path: path, displayName: shown)
        if let language = configuration.language, LanguageChoice.flag == nil { try? Localization.use(language) }
        return configuration
    }

    /// The library session over this command's database, at the command's `now`.
    ///
    /// `readingOnly` is for a command that never writes (``LibrarySession/open``); `logger`
    /// receives refresh diagnostics (warnings and worse by default).
    func session(
        _ configuration: Configuration, readingOnly: Bool = false, logger: Logger? = nil, clock: (@Sendable () -> Date)? = nil
    ) throws -> LibrarySession {
        let now = now
        let session = try LibrarySession.open(
            configuration: configuration, databasePath: databasePath, registry: registry, environment: environment,
            readingOnly: readingOnly, servers: servers, logger: logger ?? Self.quietLogger, clock: clock ?? { now })
        if readingOnly, session.storage is Store { Self.readers.withLock { $0.append(session) } }
        return session
    }

    /// The sessions this process opened only to read a SQLite file, kept open until it exits.
    ///
    /// Closing one releases its connection's dispatch queue, and releasing a queue starts a
    /// dispatch worker thread to finish the job: a thread in every `aggr timeline`, after its
    /// output, for nothing a reader leaves behind (it wrote nothing; the kernel closes the file).
    /// A PostgreSQL session still closes, saying goodbye to its server.
    private static let readers = Mutex<[LibrarySession]>([])

    /// A session for a command that reads no config (`show`, `read`, `save`…), or the
    /// optional one it read (nil: no providers, views or hiding rules).
    func session(_ configuration: Configuration? = nil, readingOnly: Bool = false) throws -> LibrarySession {
        try session(configuration ?? Configuration(file: editablePath), readingOnly: readingOnly, logger: nil, clock: nil)
    }

    /// Refresh diagnostics at warning level and above.
    static var quietLogger: Logger {
        var logger = Logger(label: "aggr")
        logger.logLevel = .warning
        return logger
    }

    /// Resolves `ITEM` arguments: a number (`42`) or `provider:id`.
    func resolve(_ references: [String], in session: LibrarySession) throws -> [StoredItem] {
        try references.map { reference in
            if let stored = try session.item(named: reference) { return stored }
            throw CLIFailure(
                message: localized("no stored item \"\(reference)\" (use the number from `aggr timeline` or provider:id)"), exitCode: 1)
        }
    }

    /// Writes `text` to standard output as is.
    func print(_ text: String) {
        StandardStream.output.write(text)
    }

    /// Writes a notice line to standard error.
    func notice(_ text: String) {
        StandardStream.error.write(text + "\n")
    }
}

/// Runs a command body, turning known errors into messages and exit codes.
func runReporting(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw reported(error)
    }
}

/// Runs a synchronous command body, turning known errors into messages and exit codes.
func runReporting<Result>(_ body: () throws -> Result) throws -> Result {
    do {
        return try body()
    } catch {
        throw reported(error)
    }
}

/// Prints the message of an error the CLI knows and returns the exit code it ends with;
/// any other error is returned for ArgumentParser to report.
func reported(_ error: Error) -> Error {
    let code: Int32
    switch error {
    case is ConfigError: code = CLIFailure.configError
    case let error as CLIFailure: code = error.exitCode
    case is StoreError, is ActionError: code = ExitCode.failure.rawValue
    case is ProviderEditError: code = CLIFailure.usage
    case is SearchError: code = ExitCode.validationFailure.rawValue
    default: return error
    }
    StandardStream.error.write("aggr: \(String(describing: error))\n")
    return ExitCode(code)
}
