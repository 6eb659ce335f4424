/// One entry of providers.json's `notify` array: which new items to tell the user about,
/// and how.
///
/// A rule fires at most once per watch pass (a digest of every match) and only for items
/// first stored after aggr first saw the rule.
public struct NotificationRule: Sendable {
    /// The rule's name, unique in the file (`[a-z0-9][a-z0-9_-]*`).
    public var name: String
    /// The `when` filter as written.
    public var expression: String
    /// `expression` parsed.
    public var filter: FilterExpression
    /// How long a channel may take (a command's run, a webhook's request).
    public var timeout = TimeSpan(seconds: 30)
    /// `"checkins": true`: the watch's daily check-ins (`"checkin": true` entries) are told
    /// through this rule's channels too, as a one-item digest.
    public var checkins = false
    /// Where the digest goes, each channel configured by its own keys.
    var channels: [any NotificationChannel] = []

    public init(name: String, expression: String, filter: FilterExpression) {
        self.name = name
        self.expression = expression
        self.filter = filter
    }

    /// The names of the channels the rule sends to.
    public var channelNames: [NotificationDelivery.Channel] { channels.map { type(of: $0).name } }
}

extension ConfigReader {
    /// The `notify` array.
    func notificationRules(_ value: JSONValue) throws(ConfigError) -> [NotificationRule] {
        guard case .array(let entries) = value else { throw fail("notify", localized("must be an array of rules, not \(value.typeName)")) }
        var rules: [NotificationRule] = []
        for (index, entry) in entries.enumerated() {
            let path = "notify[\(index)]"
            let rule = try notificationRule(entry, at: path)
            if rules.contains(where: { $0.name == rule.name }) {
                throw fail("\(path).name", localized("duplicate rule name \"\(rule.name)\""))
            }
            rules.append(rule)
        }
        return rules
    }

    func notificationRule(_ value: JSONValue, at path: String) throws(ConfigError) -> NotificationRule {
        let kinds = NotificationChannels.kinds
        let keys = ["name", "when", "timeout", "checkins"] + kinds.flatMap { $0.keys }
        let members = try members(value, at: path, allowed: keys)
        let entry = NotificationRuleEntry(reader: self, path: path, members: members)
        guard let nameValue = entry.field("name") else { throw fail(path, "needs \"name\"") }
        let name = try string(nameValue, at: "\(path).name")
        guard ProviderIdentifier.isValid(name) else { throw fail("\(path).name", localized("\"\(name)\" must match [a-z0-9][a-z0-9_-]*")) }
        guard let whenValue = entry.field("when") else {
            throw fail(path, "needs \"when\": a filter such as \"kind = release and repo ~ 'swift'\"")
        }
        let (text, parsed) = try filter(whenValue, at: "\(path).when")
        var rule = NotificationRule(name: name, expression: text, filter: parsed)
        if let timeout = entry.field("timeout") { rule.timeout = try timeSpan(timeout, at: "\(path).timeout") }
        if let checkins = entry.field("checkins") {
            guard let flag = checkins.boolValue else { throw fail("\(path).checkins", localized("must be true or false")) }
            rule.checkins = flag
        }
        for kind in kinds {
            if let channel = try kind.configured(by: entry) { rule.channels.append(channel) }
        }
        guard !rule.channels.isEmpty else {
            throw fail(path, localized("says nothing to do: add \"desktop\": true, a \"command\" or a \"webhook\""))
        }
        return rule
    }
}
