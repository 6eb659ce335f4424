import Aggregator
import ArgumentParser
import Foundation

/// `aggr users`: the people sharing a PostgreSQL database, each with their own read and
/// saved state, labels and sign-in.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: localized("List, add and remove the users of a PostgreSQL database, and set their passwords."),
        subcommands: [List.self, Add.self, Remove.self, Passwd.self],
        defaultSubcommand: List.self)

    /// `aggr users list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: localized("List the users."))

        @OptionGroup var global: GlobalOptions

        func run() throws {
            try runReporting {
                let context = CommandContext(options: global)
                for name in try context.session().userNames() { print(name) }
            }
        }
    }

    /// `aggr users add NAME`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: localized("Add a user; the password is asked for (or read from the first line of standard input)."))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp(localized("The user's name."), valueName: "name"))
        var name: String

        func run() throws {
            try runReporting {
                let context = CommandContext(options: global)
                let session = try context.session()
                try session.addUser(name, password: try UsersCommand.password())
                context.notice(localized("added user \(name)"))
            }
        }
    }

    /// `aggr users remove NAME`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: localized("Remove a user with their read and saved state and labels."))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp(localized("The user's name."), valueName: "name"))
        var name: String

        func run() throws {
            try runReporting {
                let context = CommandContext(options: global)
                try context.session().removeUser(name)
                context.notice(localized("removed user \(name)"))
            }
        }
    }

    /// `aggr users passwd NAME`.
    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: localized("Set a user's password (asked for, or read from the first line of standard input)."))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp(localized("The user's name."), valueName: "name"))
        var name: String

        func run() throws {
            try runReporting {
                let context = CommandContext(options: global)
                try context.session().setPassword(of: name, to: try UsersCommand.password())
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
