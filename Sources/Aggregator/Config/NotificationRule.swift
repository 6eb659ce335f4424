/// One entry of providers.json's `notify` array: which new items to tell the user about,
/// and how.
///
/// A rule fires at most once per watch pass (a digest of every match) and only for items
/// first stored after aggr first saw the rule.
public struct NotificationRule: Sendable, Equatable {
    /// The rule's name, unique in the file (`[a-z0-9][a-z0-9_-]*`).
    public var name: String
    /// The `when` filter as written.
    public var expression: String
    /// `expression` parsed.
    public var filter: FilterExpression
    /// Show a desktop notification (`notify-send`, else OSC 9 on a terminal).
    public var desktop = false
    /// A program and its arguments, run without a shell; the matches arrive on standard input
    /// as NDJSON.
    public var command: [String]?
    /// How long `command` may run.
    public var timeout = TimeSpan(seconds: 30)
    /// An http(s) URL the matches are POSTed to as JSON.
    public var webhook: String?
    /// The environment variable holding the webhook's HMAC-SHA256 key.
    public var secretEnv: String?

    public init(name: String, expression: String, filter: FilterExpression) {
        self.name = name
        self.expression = expression
        self.filter = filter
    }
}

extension ConfigReader {
    /// The `notify` array.
    func notificationRules(_ value: JSONValue) throws(ConfigError) -> [NotificationRule] {
        guard case .array(let entries) = value else { throw fail("notify", "must be an array of rules, not \(value.typeName)") }
        var rules: [NotificationRule] = []
        for (index, entry) in entries.enumerated() {
            let path = "notify[\(index)]"
            let rule = try notificationRule(entry, at: path)
            if rules.contains(where: { $0.name == rule.name }) {
                throw fail("\(path).name", "duplicate rule name \"\(rule.name)\"")
            }
            rules.append(rule)
        }
        return rules
    }

    func notificationRule(_ value: JSONValue, at path: String) throws(ConfigError) -> NotificationRule {
        let keys = ["name", "when", "desktop", "command", "timeout", "webhook", "secret_env"]
        let members = try members(value, at: path, allowed: keys)
        func field(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        guard let nameValue = field("name") else { throw fail(path, "needs \"name\"") }
        let name = try string(nameValue, at: "\(path).name")
        guard ProviderIdentifier.isValid(name) else { throw fail("\(path).name", "\"\(name)\" must match [a-z0-9][a-z0-9_-]*") }
        guard let whenValue = field("when") else {
            throw fail(path, "needs \"when\": a filter such as \"kind = release and repo ~ 'swift'\"")
        }
        let (text, parsed) = try filter(whenValue, at: "\(path).when")
        var rule = NotificationRule(name: name, expression: text, filter: parsed)
        if let desktop = field("desktop") {
            guard case .bool(let on) = desktop else { throw fail("\(path).desktop", "must be true or false") }
            rule.desktop = on
        }
        if let command = field("command") {
            guard case .array(let parts) = command, !parts.isEmpty, parts.allSatisfy({ $0.stringValue?.isEmpty == false }) else {
                throw fail("\(path).command", "must be the program and its arguments, such as [\"/usr/local/bin/my-hook\", \"--quiet\"]")
            }
            rule.command = parts.compactMap(\.stringValue)
        }
        if let timeout = field("timeout") { rule.timeout = try timeSpan(timeout, at: "\(path).timeout") }
        if let webhook = field("webhook") {
            let text = try string(webhook, at: "\(path).webhook")
            guard WebURL.isHTTP(text) else {
                throw fail("\(path).webhook", "must be an http or https URL (got \"\(SecretRedactor.origin(of: text))…\")")
            }
            rule.webhook = text
        }
        if let secret = field("secret_env") {
            rule.secretEnv = try tokenEnv(secret, at: "\(path).secret_env", secret: "secret", example: "AGGR_WEBHOOK_SECRET")
            guard rule.webhook != nil else { throw fail("\(path).secret_env", "signs the webhook; the rule has no \"webhook\"") }
        }
        guard rule.desktop || rule.command != nil || rule.webhook != nil else {
            throw fail(path, "says nothing to do: add \"desktop\": true, a \"command\" or a \"webhook\"")
        }
        return rule
    }
}
