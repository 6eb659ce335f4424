import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Providers

/// `aggr types`: every registered provider type, generated from its metadata.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types", abstract: localized("Describe the provider types, their sections, options and auth."))

    @Argument(help: ArgumentHelp(localized("Only this type.")))
    var type: String?

    func run() throws {
        let registry = BuiltinProviders.registry
        if let type, registry.type(named: type) == nil {
            let hint = NearestName.suggestion(for: type, among: registry.typeNames).map { localized(" (did you mean \"\($0)\"?)") } ?? ""
            throw ValidationError(localized("unknown type \"\(type)\"\(hint); known: \(registry.typeNames.joined(separator: ", "))"))
        }
        let text = TypeCatalog.render(registry, only: type)
        print(text.isEmpty ? localized("no provider types are registered in this build\n") : text, terminator: "")
    }
}
