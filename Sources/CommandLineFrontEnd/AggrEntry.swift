import Aggregator
import ArgumentParser
import Foundation

/// The storage servers commands can open (``StorageServer``), by `--user`.
///
/// What the binary running the commands links; set once by `main`, before any command runs.
nonisolated(unsafe) var storageServers: (String?) -> [any StorageServer] = { _ in [] }

/// Starts the command line: parses the arguments, then runs the command.
///
/// ArgumentParser's own `AsyncParsableCommand.main()` hops to the global executor before
/// parsing, which starts a dispatch worker thread in every process. Here the parse, and a
/// command that is synchronous (`timeline`, `search`, `show`, `--version`, help…), run on
/// the main thread with no hop; only a command that awaits (refresh, watch, add…) leaves it.
public enum AggrEntry {
    /// A parsed command that awaits (refresh, watch, add…), to run once the binary's `main`
    /// leaves the main thread for it.
    ///
    /// Unchecked: `main` hands it once to the run it awaits and never touches it again.
    public struct Asynchronous: @unchecked Sendable {
        var command: any AsyncParsableCommand

        public mutating func run() async {
            do {
                try await command.run()
            } catch {
                Aggr.exit(withError: error)
            }
        }
    }

    /// Parses the command line with `servers` as the server databases it can open, and runs
    /// a synchronous command right here; returns a command that awaits, for the caller to run.
    ///
    /// Called from a binary's synchronous part of `main`, the parse and the synchronous
    /// commands run on the main thread with no hop to the global executor.
    public static func start(servers: @escaping (String?) -> [any StorageServer]) -> Asynchronous? {
        storageServers = servers
        do {
            let arguments = try runReporting { try LanguageChoice.apply(Array(CommandLine.arguments.dropFirst())) }
            var command = try Aggr.parseAsRoot(arguments)
            if let asynchronous = command as? AsyncParsableCommand { return Asynchronous(command: asynchronous) }
            try command.run()
            return nil
        } catch {
            Aggr.exit(withError: error)
        }
    }

    /// Runs `aggr-postgres` beside this binary when the command names a PostgreSQL database.
    ///
    /// `--db`, `--to` or `AGGR_DB` may name one; the same arguments go along. PostgreSQL's
    /// client and SwiftNIO stay out of the start-up of every command on a SQLite file.
    /// Returns only when nothing names one.
    public static func handOffToServerBinary() {
        func names(_ value: String) -> Bool {
            var text = Substring(value)
            if text.hasPrefix("--"), let equals = text.firstIndex(of: "=") { text = text[text.index(after: equals)...] }
            return ["postgres", "postgresql"].contains(StorageAddress.scheme(of: String(text)) ?? "")
        }
        let database = ProcessEnvironment.variables["AGGR_DB"] ?? ""
        guard names(database) || CommandLine.arguments.dropFirst().contains(where: names) else { return }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let binary = ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent("aggr-postgres")
        let argv = ([binary] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
        execv(binary, argv)
        let message = localized(
            "\(binary) is missing: a PostgreSQL database needs it (build it with `swift build --product aggr-postgres`, or `make install`)")
        StandardStream.error.write("aggr: \(message)\n")
        exit(1)
    }
}
