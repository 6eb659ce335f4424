import ArgumentParser

/// Starts `aggr`: parses the arguments, then runs the command.
///
/// ArgumentParser's own `AsyncParsableCommand.main()` hops to the global executor before
/// parsing, which starts a dispatch worker thread in every process. Here the parse, and a
/// command that is synchronous (`timeline`, `search`, `show`, `--version`, help…), run on
/// the main thread with no hop; only a command that awaits (refresh, watch, add…) leaves it.
@main
enum AggrEntry {
    static func main() async {
        do {
            let arguments = try runReporting { try LanguageChoice.apply(Array(CommandLine.arguments.dropFirst())) }
            var command = try Aggr.parseAsRoot(arguments)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            Aggr.exit(withError: error)
        }
    }
}
