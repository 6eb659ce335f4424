import Aggregator
import ArgumentParser

/// `aggr providers`: configured providers with stored items and fetch state.
struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "List configured providers, their stored items and last fetch.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.configuration()
            let store = try context.openStore()
            let table = ProviderTable(terminal: context.terminal, now: context.now)
            context.print(table.render(configuration: configuration, counts: try store.itemCounts(), states: try store.providerStates()))
            if configuration.providers.isEmpty {
                context.notice("\(configuration.file) lists no providers yet; see `aggr types` for what can be added")
            }
        }
    }
}
