import Aggregator
import ArgumentParser
import Foundation
import Logging
import TerminalFrontEnd

/// `aggr tui`: read the merged timeline interactively.
struct TuiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: localized("Read the timeline interactively: tabs, a list, items with their threads (press ? for keys)."),
        discussion: """
            Tabs: the config's views, All, then each provider, with unread counts. j/k move, Enter opens (and marks read), \
            q or Esc goes back or quits, Tab switches tabs, / searches, f filters, r/s toggle read/saved, A marks the tab \
            read, o opens in $BROWSER, y copies the URL, R refreshes, ? lists every key. Remap keys under "keys" in \
            providers.json. NO_COLOR turns colours off. --images shows items' images (Dribbble shots) on the item page \
            through the kitty graphics protocol or sixel; auto picks one from TERM, TERM_PROGRAM and KITTY_WINDOW_ID \
            (never inside tmux or screen).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp(localized("Inline images: off, auto, kitty or sixel.")))
    var images = "off"

    func validate() throws {
        guard InlineImageProtocol.settings.contains(images) else {
            throw ValidationError(
                localized("--images must be one of \(InlineImageProtocol.settings.joined(separator: ", ")), not '\(images)'"))
        }
    }

    func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            StandardStream.error.write(localized("aggr: tui needs a terminal (use `aggr timeline` in scripts)\n"))
            throw ExitCode(CLIFailure.usage)
        }
        let context = CommandContext(options: global)
        do {
            let configuration = try context.configuration()
            // The screen is the reader's: refresh diagnostics go to its status line, not stderr.
            var logger = Logger(label: "aggr.tui")
            logger.logLevel = .critical
            let session = try context.session(configuration, logger: logger, clock: { Date() })
            try TerminalReader(session: session, images: InlineImageProtocol.chosen(by: images, environment: context.environment)).run()
        } catch let error as ConfigError {
            StandardStream.error.write("aggr: \(error)\n")
            throw ExitCode(CLIFailure.configError)
        } catch let error as TerminalError {
            StandardStream.error.write("aggr: \(error)\n")
            throw ExitCode(CLIFailure.usage)
        } catch let error as StoreError {
            StandardStream.error.write("aggr: \(error)\n")
            throw ExitCode.failure
        }
    }
}
