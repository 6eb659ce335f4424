import Aggregator
import ArgumentParser
import ConsoleFrontEnd

/// `aggr checkin [PROVIDER]`: claim a site's daily sign-in reward (V2EX's 每日登录奖励).
struct CheckinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin",
        abstract: localized("Claim the daily sign-in reward (V2EX); once a day, already claimed counts as done."),
        discussion: localized("With no provider, every provider whose type has a check-in and a session cookie set."))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions

    @Argument(help: ArgumentHelp(localized("Provider ids (default: every one that can check in).")))
    var providers: [String] = []

    @Flag(help: ArgumentHelp(localized("Ask the site even when aggr claimed today already.")))
    var force = false

    func run() async throws {
        var failed = false
        try await runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.configuration()
            let session = try context.session(configuration)
            let actions = ItemActions(session: session)
            var ids = providers
            if ids.isEmpty {
                ids = configuration.providers.filter { (try? actions.support(.checkin, on: nil, provider: $0.id)) != nil }.map(\.id)
                guard !ids.isEmpty else {
                    throw CLIFailure(
                        message:
                            localized(
                                "no provider can check in: a v2ex entry needs \"cookie_env\" naming a variable that holds its session cookie"
                            ),
                        exitCode: 1)
                }
            }
            for id in ids {
                do {
                    let result = try await actions.checkin(provider: id, dryRun: options.dryRun, force: force)
                    context.print(ActionReport().render(result, dryRun: options.dryRun))
                } catch let error as ActionError {
                    context.notice("aggr: \(error.description)")
                    failed = true
                }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
