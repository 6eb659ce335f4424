import Aggregator
import ArgumentParser

/// `aggr notify add NAME --when FILTER …`: saves a notification rule, the user's own on a
/// database with users, else in providers.json.
struct NotifyAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: localized("Add or replace a notification rule: your own on a database with users, else in providers.json."),
        discussion: localized(
            "aggr watch sends each rule a digest of the new items its filter matches. Give at least one channel: --webhook, --webhook-env, --desktop, or a command after --, as in: aggr notify add mine --when \"title ~* 'aggr'\" -- /usr/local/bin/my-hook --quiet"
        ))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The rule's name (a-z, 0-9, - and _).")))
    var name: String

    @Option(
        help: ArgumentHelp(localized("The filter new items must match, e.g. 'kind = release and repo ~ \"swift\"'."), valueName: "filter"))
    var when: String

    @Option(help: ArgumentHelp(localized("POST the digest as JSON to this URL."), valueName: "url"))
    var webhook: String?

    @Option(help: ArgumentHelp(localized("POST to the URL held by this environment variable of the watch."), valueName: "variable"))
    var webhookEnv: String?

    @Option(help: ArgumentHelp(localized("Sign the webhook with the key held by this environment variable."), valueName: "variable"))
    var secretEnv: String?

    @Flag(help: ArgumentHelp(localized("Show a desktop notification (notify-send).")))
    var desktop = false

    @Option(help: ArgumentHelp(localized("How long a channel may take, e.g. 30s."), valueName: "duration"))
    var timeout: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp(localized("After --: a program and its arguments, given the digest.")))
    var command: [String] = []

    func validate() throws {
        guard webhook != nil || webhookEnv != nil || desktop || !command.isEmpty else {
            throw ValidationError(localized("give a channel: --webhook URL, --webhook-env VARIABLE, --desktop, or a command after --"))
        }
        if webhook != nil, webhookEnv != nil { throw ValidationError(localized("give --webhook or --webhook-env, not both")) }
        if secretEnv != nil, webhook == nil, webhookEnv == nil {
            throw ValidationError(localized("--secret-env signs a webhook; give one"))
        }
    }

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let session = try context.session(try context.optionalConfiguration())
            var draft = NotificationRuleDraft(name: name, when: when)
            draft.webhook = webhook
            draft.webhookEnv = webhookEnv
            draft.secretEnv = secretEnv
            draft.desktop = desktop
            draft.timeout = timeout
            draft.command = command.isEmpty ? nil : command
            let place: LibrarySession.RulePlace
            do {
                place = try session.saveRule(draft)
            } catch let error as FilterError {
                throw CLIFailure(message: "\(error)", exitCode: CLIFailure.usage)
            }
            switch place {
            case .user(let user): context.notice(localized("saved notify rule \(name) for \(user): aggr watch sends it"))
            case .config(let file): context.notice(localized("saved notify rule \(name) in \(file): aggr watch sends it"))
            }
        }
    }
}
