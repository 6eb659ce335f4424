import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr watch`: refresh each provider when it is due, and notify, until stopped.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: localized("Keep the timeline fresh: refresh providers when due and send notifications, until stopped."),
        discussion: """
            Runs until SIGINT or SIGTERM (what came back is stored; exit 0). One watch per database: a second one \
            refuses to start (exit 75) naming the first one's pid; refresh, timeline, read… keep working meanwhile. \
            providers.json edits are picked up at the next pass; a broken edit is reported and the last good config \
            keeps running. Notification rules are the config's "notify" array (see `aggr notify test`).
            --once does one pass over what is due and exits, with refresh's exit status (for cron and systemd timers).
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: ArgumentHelp(localized("One pass over what is due, deliver its notifications, then exit.")))
    var once = false

    /// sysexits.h's EX_TEMPFAIL: another watch holds the database; try again later.
    static let alreadyWatching: Int32 = 75

    func run() async throws {
        var status: Int32 = 0
        try await runReporting {
            let context = CommandContext(options: global)
            let (path, configuration) = try context.configurationFile()
            // One watch per SQLite file; on a server any number share the refresh, each
            // claiming what it fetches (``TimelineStorage/claimRefresh``).
            var lock: WatchLock?
            if !context.databaseIsServer {
                do {
                    lock = try WatchLock(database: context.databasePath)
                } catch {
                    throw CLIFailure(message: "\(error)", exitCode: Self.alreadyWatching)
                }
            }
            let errorIsTTY = isatty(STDERR_FILENO) == 1
            let write: @Sendable (String) -> Void = { StandardStream.error.write($0) }
            let log = WatchLog(live: errorIsTTY, color: errorIsTTY && context.terminal.color, width: context.terminal.width, write: write)
            // The watch's clock is the wall clock: each pass happens at its own time.
            let session = try context.session(configuration, clock: { Date() })
            let notifier = Notifier(environment: context.environment, terminal: errorIsTTY ? write : nil)
            let watcher = Watcher(
                session: session, configPath: path, notifier: notifier, report: log.handle, refreshEvents: log.handle)
            let enabled = configuration.providers.filter(\.enabled).count
            log.line(
                localized("watching \(configuration.file)") + " ("
                    + localized("\(enabled) provider", plural: "\(enabled) providers", count: enabled) + ", "
                    + localized(
                        "\(configuration.notify.count) notify rule", plural: "\(configuration.notify.count) notify rules",
                        count: configuration.notify.count) + ") "
                    + localized("into \(context.databasePath), pid \(getpid())")
            )
            let task = Task { await watcher.run(once: once) }
            let stop = StopSignals { signal in
                log.line(localized("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping"))
                task.cancel()
            }
            let summary = await task.value
            stop.cancel()
            log.close()
            withExtendedLifetime(lock) {}
            if once { status = summary.exitStatus }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// SIGINT and SIGTERM delivered to a handler instead of ending the process.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops listening (the signals stay ignored until the process exits).
    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
