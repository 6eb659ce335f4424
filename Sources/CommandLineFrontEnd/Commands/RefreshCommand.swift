import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr refresh`: fetch every enabled provider concurrently and store what is new.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: localized("Fetch providers concurrently and store new and updated items."),
        discussion: """
            Exit status: 0 when every provider that ran succeeded, 2 when some failed, 1 when none could run.
            --record saves each raw response (secrets removed) for bug reports; --replay answers from such a directory.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("Only these provider ids (default: every enabled provider).")))
    var providers: [String] = []

    @Flag(help: ArgumentHelp(localized("Ignore intervals and backoff (never an upstream rate limit).")))
    var force = false

    @Option(help: ArgumentHelp(localized("Save every raw response under this directory."), valueName: "dir"))
    var record: String?

    @Option(help: ArgumentHelp(localized("Answer from recordings in this directory instead of the network."), valueName: "dir"))
    var replay: String?

    func run() async throws {
        var status: Int32 = 0
        try await runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.configuration()
            let known = configuration.providers.map(\.id)
            for id in providers where !known.contains(id) {
                let hint = NearestName.suggestion(for: id, among: known).map { localized(" (did you mean \"\($0)\"?)") } ?? ""
                throw CLIFailure(message: localized("no provider \"\(id)\" in \(configuration.file)\(hint)"), exitCode: CLIFailure.usage)
            }
            if let replay, !FileManager.default.fileExists(atPath: replay) {
                throw CLIFailure(message: localized("--replay: \(replay) does not exist"), exitCode: CLIFailure.usage)
            }
            if configuration.providers.isEmpty {
                context.notice(localized("\(configuration.file) lists no providers; see `aggr types`"))
                return
            }
            // The client first: its thread loads libcurl while the database opens.
            let curl: CurlHTTPClient?
            var http: any HTTPClient
            if let replay {
                curl = nil
                http = ReplayHTTPClient(directory: replay)
            } else {
                let client = CurlHTTPClient()
                curl = client
                http = client
            }
            if let record { http = RecordingHTTPClient(wrapping: http, directory: record) }
            // Released last: its release waits for the connections to close.
            defer { withExtendedLifetime(curl) {} }
            let session = try context.session(configuration)
            let errorIsTTY = isatty(STDERR_FILENO) == 1
            let progress = RefreshProgress(
                live: errorIsTTY, color: errorIsTTY && context.terminal.color, width: context.terminal.width,
                write: { StandardStream.error.write($0) })
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 100_000_000)
                    progress.tick()
                }
            }
            let summary: RefreshSummary
            do {
                summary = try await session.refresh(only: providers, force: force, http: http, events: progress.handle)
                // libcurl closes its connections (a socket each) on its own thread while
                // the session's release closes the database (a checkpoint and two syncs).
                withExtendedLifetime(session) { curl?.beginClosing() }
                ticker.cancel()
                progress.finish()
            } catch {
                ticker.cancel()
                progress.finish()
                throw error
            }
            context.notice(summary.line)
            status = summary.exitStatus
        }
        if status != 0 { throw ExitCode(status) }
    }
}
