import Aggregator
import ArgumentParser
import ConsoleFrontEnd
import Foundation

/// `aggr providers`: list configured providers, or edit the list.
struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: localized("List configured providers, or add, remove, enable and disable them."),
        subcommands: [
            ProvidersListCommand.self, ProvidersAddCommand.self, ProvidersRemoveCommand.self, ProvidersEnableCommand.self,
            ProvidersDisableCommand.self,
        ],
        defaultSubcommand: ProvidersListCommand.self)
}

/// `aggr providers [list]`: configured providers with stored items and fetch state.
struct ProvidersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: localized("List providers, their stored items and last fetch."))

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("check"),
        help: ArgumentHelp(localized("Ask whether provider ID's token and cookie are accepted right now (one request each).")))
    var check: String?

    func run() async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            let configuration = try context.configuration()
            if let check { return try await checkCredentials(check, configuration: configuration, context: context) }
            let status = try context.session(configuration).providerStatus()
            let table = ProviderTable(terminal: context.terminal, now: context.now)
            context.print(table.render(configuration: configuration, counts: status.counts, states: status.states))
            if configuration.providers.isEmpty {
                context.notice(localized("\(configuration.file) lists no providers yet; see `aggr types` for what can be added"))
            }
        }
    }
}

extension ProvidersListCommand {
    func checkCredentials(_ id: String, configuration: Configuration, context: CommandContext) async throws {
        guard let entry = configuration.providers.first(where: { $0.id == id }), let type = context.registry.type(named: entry.type)
        else {
            let hint =
                NearestName.suggestion(for: id, among: configuration.providers.map(\.id)).map { localized(" (did you mean \"\($0)\"?)") }
                ?? ""
            throw CLIFailure(message: localized("no provider \"\(id)\"\(hint)"), exitCode: CLIFailure.usage)
        }
        let findings = await CredentialCheck(http: CurlHTTPClient(), environment: ProcessEnvironment.variables).run(
            entry, metadata: type.metadata)
        guard !findings.isEmpty else {
            context.print(localized("\(id): \(entry.type) uses no token or cookie\n"))
            return
        }
        var lines: [String] = []
        for finding in findings {
            switch finding.verdict {
            case .accepted: lines.append(localized("\(id) \(finding.credential): accepted"))
            case .rejected(let why): lines.append(localized("\(id) \(finding.credential): rejected: \(why)"))
            case .notConfigured(let why): lines.append(localized("\(id) \(finding.credential): not configured: \(why)"))
            case .unknown(let why): lines.append(localized("\(id) \(finding.credential): could not check: \(why)"))
            }
        }
        context.print(lines.joined(separator: "\n") + "\n")
        // Success means every configured credential was accepted (and there was one).
        let configured = findings.filter { if case .notConfigured = $0.verdict { false } else { true } }
        if configured.isEmpty || configured.contains(where: { $0.verdict != .accepted }) { throw ExitCode(1) }
    }
}

/// Shared by the editing subcommands: one change to the provider entries, saved, then said.
func editProviders(_ global: GlobalOptions, _ change: (inout ProviderEntries) throws(ProviderEditError) -> String) throws {
    let context = CommandContext(options: global)
    var entries = try ProviderEntries(path: context.editablePath, registry: context.registry)
    let message: String
    do {
        message = try change(&entries)
    } catch {
        throw CLIFailure(message: error.description, exitCode: CLIFailure.usage)
    }
    try entries.save()
    context.notice(message)
}

/// `aggr providers add ID TYPE SECTION…`: append an entry.
struct ProvidersAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: localized("Add a provider entry: aggr providers add swift-releases github releases/swiftlang/swift"))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The new provider id.")))
    var id: String

    @Argument(help: ArgumentHelp(localized("Its type (see aggr types).")))
    var type: String

    @Argument(help: ArgumentHelp(localized("Its sections (may be empty for types with a default section).")))
    var sections: [String] = []

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp("A type option, such as url=https://example.com/feed.xml (repeatable).", valueName: "key=value"))
    var option: [String] = []

    @Option(help: ArgumentHelp(localized("The environment variable holding a token.")))
    var tokenEnv: String?

    @Option(help: ArgumentHelp(localized("Minimum time between fetches, such as 30m.")))
    var interval: String?

    func run() throws {
        try runReporting {
            var options: [(key: String, value: String)] = []
            for pair in option {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw CLIFailure(message: "--option \"\(pair)\": write key=value", exitCode: CLIFailure.usage)
                }
                options.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            }
            try editProviders(global) { entries throws(ProviderEditError) in
                try entries.add(id: id, type: type, sections: sections, options: options, tokenEnv: tokenEnv, interval: interval)
                return localized("added \(id) (\(type)) to \(entries.path)")
            }
        }
    }
}

/// `aggr providers remove ID`: drop an entry (its stored items stay until `aggr prune --orphans`).
struct ProvidersRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: localized("Remove a provider entry; its stored items stay until aggr prune --orphans."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The provider id.")))
    var id: String

    func run() throws {
        try runReporting {
            try editProviders(global) { entries throws(ProviderEditError) in
                try entries.remove(id)
                return localized("removed \(id) from \(entries.path)")
            }
        }
    }
}

/// `aggr providers enable ID`.
struct ProvidersEnableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: localized("Enable a provider entry."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The provider id.")))
    var id: String

    func run() throws {
        try runReporting { try setEnabled(true, id: id, global: global) }
    }
}

/// `aggr providers disable ID`: keep the entry, skip it on refresh.
struct ProvidersDisableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: localized("Disable a provider entry (kept, but skipped on refresh)."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The provider id.")))
    var id: String

    func run() throws {
        try runReporting { try setEnabled(false, id: id, global: global) }
    }
}

/// Sets or clears `"enabled": false` on entry `id`.
func setEnabled(_ enabled: Bool, id: String, global: GlobalOptions) throws {
    try editProviders(global) { entries throws(ProviderEditError) in
        try entries.setEnabled(enabled, id: id)
        return enabled ? localized("enabled \(id) in \(entries.path)") : localized("disabled \(id) in \(entries.path)")
    }
}
