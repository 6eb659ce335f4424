import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr notify`: the notification rules aggr watch sends.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify", abstract: localized("Add, list, remove and check the notification rules that aggr watch sends."),
        subcommands: [NotifyListCommand.self, NotifyAddCommand.self, NotifyRemoveCommand.self, NotifyTestCommand.self])
}

/// `aggr notify test NAME`: which stored items a rule matches, then a test notification.
struct NotifyTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: localized("Show which stored items a notify rule matches and send a test notification with the newest."),
        discussion: localized("The webhook receives event \"test\". Exit status 1 when a channel failed."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The rule's name (yours, or \"name\" in providers.json's \"notify\").")))
    var name: String

    @Option(help: ArgumentHelp(localized("Matches to show and send.")))
    var sample: Int = 5

    @Flag(help: ArgumentHelp(localized("Only show the matches; send nothing.")))
    var dryRun = false

    func validate() throws {
        guard (1...100).contains(sample) else { throw ValidationError(localized("--sample must be from 1 to 100")) }
    }

    func run() async throws {
        var failed = false
        try await runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.configuration()
            let session = try context.session(configuration)
            let preview: NotificationPreview
            do {
                preview = try NotificationPreview(session: session, rule: name, sample: sample)
            } catch let error as NotificationPreview.UnknownRule {
                throw CLIFailure(message: error.description, exitCode: CLIFailure.usage)
            }
            var output = localized("rule \(preview.rule.name): \(preview.rule.expression)") + "\n"
            output += localized("\(preview.total) stored item matches", plural: "\(preview.total) stored items match", count: preview.total)
            let byProvider = preview.counts.filter { $0.matching > 0 }.map { "\($0.provider) \($0.matching)" }
            output += byProvider.isEmpty ? "\n" : " (\(byProvider.joined(separator: ", ")))\n"
            if !preview.newest.isEmpty {
                output += "newest:\n" + TimelineRenderer(terminal: context.terminal, now: context.now).render(preview.newest, format: .text)
            }
            context.print(output)
            guard !dryRun else { return }
            let errorIsTTY = isatty(STDERR_FILENO) == 1
            let toTerminal: @Sendable (String) -> Void = { StandardStream.error.write($0) }
            let notifier = Notifier(environment: context.environment, terminal: errorIsTTY ? toTerminal : nil)
            for delivery in await notifier.send(preview.digest, for: preview.rule, event: "test") {
                context.notice(delivery.line)
                failed = failed || !delivery.succeeded
            }
        }
        if failed { throw ExitCode.failure }
    }
}
