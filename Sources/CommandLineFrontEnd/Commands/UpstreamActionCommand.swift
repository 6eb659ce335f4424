import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// Options every command that acts upstream takes.
struct UpstreamActionOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(localized("Print the requests (method, URL, form, secrets redacted) and send nothing.")))
    var dryRun = false

    @Flag(name: .shortAndLong, help: ArgumentHelp(localized("Do not ask first, for actions that cost or cannot be undone (thank).")))
    var yes = false
}

/// Runs one action on one item for a command: asks first when the action costs, performs
/// it through ``ItemActions`` and prints the report.
struct UpstreamAction {
    var global: GlobalOptions
    var options: UpstreamActionOptions

    func run(_ order: ItemActions.Order, item reference: String) async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            let session = try context.session(try context.configuration())
            guard let stored = try context.resolve([reference], in: session).first else { return }
            let actions = ItemActions(session: session)
            do {
                _ = try actions.support(order.action, on: stored)
                if !order.dryRun, let warning = actions.confirmation(order.action, on: stored) {
                    try confirm(warning, action: order.action, title: stored.item.title)
                }
                let result = try await actions.perform(order, on: stored)
                context.print(ActionReport().render(result, dryRun: order.dryRun))
            } catch let error as ActionError {
                throw CLIFailure(message: error.description, exitCode: 1)
            }
        }
    }

    /// Asks on the terminal, or refuses without `--yes` when no one can answer.
    func confirm(_ warning: String, action: ItemAction, title: String) throws {
        if options.yes { return }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIFailure(message: localized("\(warning): pass --yes to \(action.rawValue) anyway (nothing was sent)"), exitCode: 1)
        }
        StandardStream.error.write("\(warning).\n\(action.rawValue) “\(TerminalText.sanitize(title))”? [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CLIFailure(message: localized("nothing was sent"), exitCode: 1) }
    }
}

/// `aggr thank ITEM`: thank a V2EX topic's or reply's author (spends coins; asks first).
struct ThankCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thank", abstract: localized("Thank an item's author upstream (V2EX 感谢; it spends coins, so aggr asks first)."))
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions
    @Argument(help: ArgumentHelp(localized("Item number from the timeline, or provider:id."))) var item: String

    func run() async throws {
        try await UpstreamAction(global: global, options: options).run(ItemActions.Order(.thank, dryRun: options.dryRun), item: item)
    }
}

/// A command that does one undoable action to one item (`fav`, `like`, `star`), `--undo`
/// taking it back.
protocol UndoableUpstreamCommand: AsyncParsableCommand {
    static var action: ItemAction { get }
    var global: GlobalOptions { get }
    var options: UpstreamActionOptions { get }
    var item: String { get }
    var undo: Bool { get }
}

extension UndoableUpstreamCommand {
    func run() async throws {
        try await UpstreamAction(global: global, options: options)
            .run(ItemActions.Order(Self.action, undo: undo, dryRun: options.dryRun), item: item)
    }
}

/// `aggr fav ITEM [--undo]`: favourite a topic upstream (V2EX 收藏), or take it back.
struct FavouriteCommand: UndoableUpstreamCommand {
    static let configuration = CommandConfiguration(commandName: "fav", abstract: localized("Favourite a topic upstream (V2EX 加入收藏)."))
    static let action = ItemAction.favourite
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions
    @Argument(help: ArgumentHelp(localized("Item number from the timeline, or provider:id."))) var item: String
    @Flag(help: ArgumentHelp(localized("Unfavourite instead."))) var undo = false
}

/// `aggr like ITEM [--undo]`: like an item upstream where the site allows it.
struct LikeCommand: UndoableUpstreamCommand {
    static let configuration = CommandConfiguration(
        commandName: "like", abstract: localized("Like an item upstream where its site allows it (`aggr types` lists who does)."))
    static let action = ItemAction.like
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions
    @Argument(help: ArgumentHelp(localized("Item number from the timeline, or provider:id."))) var item: String
    @Flag(help: ArgumentHelp(localized("Unlike instead."))) var undo = false
}

/// `aggr star ITEM [--undo]`: star the repository of a GitHub or Gitee item.
struct StarCommand: UndoableUpstreamCommand {
    static let configuration = CommandConfiguration(
        commandName: "star", abstract: localized("Star the repository of a GitHub or Gitee item (the token needs the right to)."))
    static let action = ItemAction.star
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions
    @Argument(help: ArgumentHelp(localized("Item number from the timeline, or provider:id."))) var item: String
    @Flag(help: ArgumentHelp(localized("Unstar instead."))) var undo = false
}

/// `aggr react ITEM REACTION`: react to a GitHub issue, pull request or comment.
struct ReactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "react",
        abstract: localized("React to a GitHub issue, pull request or comment (+1 -1 laugh confused heart hooray rocket eyes)."))
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: UpstreamActionOptions
    @Argument(help: ArgumentHelp(localized("Item number from the timeline, or provider:id."))) var item: String
    @Argument(help: ArgumentHelp(localized("The reaction: +1, -1, laugh, confused, heart, hooray, rocket or eyes."))) var reaction: String =
        "+1"

    func run() async throws {
        try await UpstreamAction(global: global, options: options)
            .run(ItemActions.Order(.react, reaction: reaction, dryRun: options.dryRun), item: item)
    }
}
