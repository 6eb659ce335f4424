import Foundation

/// Notification rules saved from a front end: on a database with users each user's own
/// (the config's rules are the deployment's), else in providers.json's `notify`.
extension LibrarySession {
    /// Where ``saveRule(_:)`` put a rule or ``removeRule(_:)`` took it from.
    public enum RulePlace: Sendable, Equatable {
        /// The user's own rules in the database.
        case user(String)
        /// The `notify` of providers.json.
        case config(String)
    }

    /// The prefix of a user's own rule's notification mark (config rules' marks are their
    /// bare names, which cannot hold a `/`).
    static let ownRuleMarkPrefix = "own/"

    /// The config's rules and, on a database with users, this session's user's own.
    ///
    /// A stored rule that no longer reads (a variable renamed in a newer aggr) is left out
    /// and named in `problems`.
    public func notificationRules() throws -> (config: [NotificationRule], own: [NotificationRule], problems: [String]) {
        guard let directory else { return (configuration.notify, [], []) }
        var own: [NotificationRule] = []
        var problems: [String] = []
        for stored in try directory.ownRules() {
            do {
                own.append(try Self.ownRule(stored.name, of: directory.userName, entry: stored.entry))
            } catch {
                problems.append("\(error)")
            }
        }
        return (configuration.notify, own, problems)
    }

    /// Saves `draft`, replacing a rule of its name: the user's own on a database with users,
    /// else in providers.json.
    ///
    /// The name, the filter and the channels are checked first. A user's rule keeps no
    /// secret in the database: a webhook URL that carries one is refused (`webhook_env`
    /// names a variable of the watch machines holding it instead).
    @discardableResult
    public func saveRule(_ draft: NotificationRuleDraft) throws -> RulePlace {
        guard ProviderIdentifier.isValid(draft.name) else {
            throw ProviderEditError(localized("rule name \"\(draft.name)\" must match [a-z0-9][a-z0-9_-]*"))
        }
        _ = try FilterParser.parse(draft.when)
        guard let directory else {
            try editConfig(member: "notify") { value throws(ProviderEditError) in
                var rules: [JSONValue] = []
                if case .array(let existing)? = value { rules = existing }
                if let index = rules.firstIndex(where: { $0["name"]?.stringValue == draft.name }) {
                    rules[index] = draft.entry
                } else {
                    rules.append(draft.entry)
                }
                value = .array(rules)
            }
            return .config(configuration.file)
        }
        if let webhook = draft.webhook, Self.carriesSecret(webhook) {
            throw ProviderEditError(
                localized(
                    "the webhook URL carries a secret, and a user's rule keeps none in the database: put the URL in an environment variable of the machines running aggr watch and name it with --webhook-env"
                ))
        }
        let text = JSONPrettyPrinter.format(draft.entry)
        _ = try Self.ownRule(draft.name, of: directory.userName, entry: text)
        try directory.saveOwnRule(draft.name, entry: text)
        return .user(directory.userName)
    }

    /// Removes rule `name`: the user's own, else from providers.json.
    @discardableResult
    public func removeRule(_ name: String) throws -> RulePlace {
        if let directory, try directory.removeOwnRule(name) { return .user(directory.userName) }
        try editConfig(member: "notify") { value throws(ProviderEditError) in
            guard case .array(var rules)? = value, let index = rules.firstIndex(where: { $0["name"]?.stringValue == name }) else {
                throw ProviderEditError(localized("no notify rule \"\(name)\""))
            }
            rules.remove(at: index)
            value = rules.isEmpty ? nil : .array(rules)
        }
        return .config(configuration.file)
    }

    /// Rule `name` of `user` read from its stored entry; errors name the user and the rule.
    static func ownRule(_ name: String, of user: String, entry text: String) throws(ConfigError) -> NotificationRule {
        let reader = ConfigReader(file: localized("rule \"\(name)\" of user \(user)"))
        let entry: JSONValue
        do {
            entry = try JSONParser.parse(text)
        } catch {
            throw reader.fail("", localized("invalid JSON: \(error.message)"))
        }
        let rule = try reader.notificationRule(entry, at: "notify")
        guard !rule.checkins else { throw reader.fail("notify.checkins", localized("check-ins are told through the config's rules")) }
        return rule
    }

    /// Whether `url` holds what looks like a credential: a user name and password, a
    /// `token=`-style parameter, or a path segment like a generated key (Slack's, Discord's).
    static func carriesSecret(_ url: String) -> Bool {
        SecretRedactor.redact(url: url) != url || SecretRedactor.pathSecrets(of: url).contains(where: ConfigReader.looksLikeSecret)
    }
}
