import Aggregator
import ArgumentParser
import Foundation

/// `aggr reply ITEM [-m TEXT | --edit]`: reply to a topic or comment on an issue upstream.
struct ReplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: localized("Reply to a V2EX topic, or comment on a GitHub or Gitee issue or pull request."),
        discussion: """
            The text is sent exactly as given (UTF-8, newlines kept). Without -m it is read from standard input when that is \
            not a terminal, else composed in $VISUAL or $EDITOR (vi); an empty text sends nothing. The reply is stored in the \
            item's thread.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions

    @Argument(help: ArgumentHelp(localized("Item number from the timeline, or provider:id.")))
    var item: String

    @Option(name: [.short, .customLong("message")], help: ArgumentHelp(localized("The reply's text.")))
    var message: String?

    @Flag(help: ArgumentHelp(localized("Compose the reply in $VISUAL or $EDITOR.")))
    var edit = false

    func run() async throws {
        let text: String
        do {
            text = try compose()
        } catch let failure as CLIFailure {
            throw reported(failure)
        }
        try await UpstreamAction(global: global, options: options)
            .run(ItemActions.Order(.reply, text: text, dryRun: options.dryRun), item: item)
    }

    /// The reply: `-m`, standard input, or the editor; an empty one cancels.
    func compose() throws -> String {
        var text: String
        if let message, !edit {
            text = message
        } else if !edit, isatty(STDIN_FILENO) != 1 {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            do {
                text = try ExternalEditor.compose(initial: message ?? "", environment: ProcessEnvironment.variables)
            } catch {
                throw CLIFailure(message: error.description, exitCode: 1)
            }
        }
        if message == nil, !edit, text.hasSuffix("\n") { text.removeLast() }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CLIFailure(message: localized("the reply is empty: nothing was sent"), exitCode: 1)
        }
        return text
    }
}
