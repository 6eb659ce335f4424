import Aggregator
import ArgumentParser
import Foundation

/// `aggr users [list|add|remove|passwd] [NAME]`: the people sharing a PostgreSQL database,
/// each with their own read and saved state, labels and sign-in.
///
/// One command with a verb rather than four subcommands: every command type costs each
/// `aggr` start-up ArgumentParser's conformance checks.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: localized("List, add and remove the users of a PostgreSQL database, and set their passwords."),
        discussion: localized(
            "add and passwd ask for the password (twice, without echo), or read it from the first line of standard input; remove takes the user's read and saved state and labels with them."
        ))

    /// What to do.
    enum Verb: String, ExpressibleByArgument, CaseIterable {
        case list, add, remove, passwd
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("list (the default), add, remove or passwd.")))
    var verb: Verb = .list

    @Argument(help: ArgumentHelp(localized("The user's name (add, remove, passwd)."), valueName: "name"))
    var name: String?

    func validate() throws {
        if verb != .list, name == nil { throw ValidationError(localized("\(verb.rawValue) needs the user's name")) }
        if verb == .list, name != nil { throw ValidationError(localized("list takes no name")) }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session()
            let name = name ?? ""
            switch verb {
            case .list:
                for user in try session.userNames() { print(user) }
            case .add:
                try session.addUser(name, password: try Self.password())
                context.notice(localized("added user \(name)"))
            case .remove:
                try session.removeUser(name)
                context.notice(localized("removed user \(name)"))
            case .passwd:
                try session.setPassword(of: name, to: try Self.password())
                context.notice(localized("password of \(name) changed"))
            }
        }
    }

    /// The new password: asked for twice without echo on a terminal, else the first line
    /// of standard input.
    static func password() throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true) else {
                throw CLIFailure(message: localized("no password on standard input"), exitCode: CLIFailure.usage)
            }
            return line
        }
        guard let first = getpass(localized("New password: ")).map({ String(cString: $0) }),
            let second = getpass(localized("Again: ")).map({ String(cString: $0) })
        else { throw CLIFailure(message: localized("no password given"), exitCode: CLIFailure.usage) }
        guard first == second else { throw CLIFailure(message: localized("the passwords differ"), exitCode: CLIFailure.usage) }
        return first
    }
}
