import Aggregator
import ArgumentParser
import ConsoleFrontEnd

/// `aggr notify list`: the rules aggr watch sends for this user.
struct NotifyListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: localized("List the notification rules: providers.json's and, on a database with users, your own."),
        discussion: localized("One rule a line: name, whose (config or the user's), channels and filter, separated by tabs."))

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session(try context.optionalConfiguration())
            let rules = try session.notificationRules()
            for problem in rules.problems { context.notice(problem) }
            let user = session.userName ?? ""
            var output = ""
            for (rule, whose) in rules.own.map({ ($0, user) }) + rules.config.map({ ($0, session.configuration.file) }) {
                let channels = rule.channelNames.map(\.rawValue).joined(separator: ",")
                output += [rule.name, whose, channels, TerminalText.sanitize(rule.expression)].joined(separator: "\t") + "\n"
            }
            context.print(output)
        }
    }
}

/// `aggr notify remove NAME`: takes a rule away, the user's own first.
struct NotifyRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: localized("Remove a notification rule: your own, else providers.json's."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The rule's name.")))
    var name: String

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session(try context.optionalConfiguration())
            switch try session.removeRule(name) {
            case .user(let user): context.notice(localized("removed notify rule \(name) of \(user)"))
            case .config(let file): context.notice(localized("removed notify rule \(name) from \(file)"))
            }
        }
    }
}
