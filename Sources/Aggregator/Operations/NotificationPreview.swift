import Foundation

/// What a notification rule would send, from what is stored: `aggr notify test`.
public struct NotificationPreview: Sendable {
    /// Why there is no such rule.
    public struct UnknownRule: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public var rule: NotificationRule
    /// Per provider, how many stored items the rule's `when` matches.
    public var counts: [FilterMatchCount]
    /// The newest matches shown by the timeline (hidden items left out).
    public var newest: [StoredItem]

    /// Looks up rule `name` (the user's own, else the config's) and matches it against what
    /// is stored, as the user.
    public init(session: LibrarySession, rule name: String, sample: Int = 10) throws {
        let (configuration, store, now) = (session.configuration, session.storage, session.clock())
        let rules = try session.notificationRules()
        guard let rule = rules.own.first(where: { $0.name == name }) ?? rules.config.first(where: { $0.name == name }) else {
            let names = (rules.own + rules.config).map(\.name)
            let hint = NearestName.suggestion(for: name, among: names).map { localized(" (did you mean \"\($0)\"?)") } ?? ""
            let known =
                names.isEmpty ? localized("\(configuration.file) has no \"notify\" rules") : "rules: \(names.joined(separator: ", "))"
            throw UnknownRule(description: localized("no notify rule \"\(name)\"\(hint); \(known)"))
        }
        self.rule = rule
        counts = try store.count(matching: rule.filter, now: now)
        var query = TimelineQuery()
        query.filters = [rule.filter]
        query.hiding = HidingRules(configuration)
        query.limit = max(1, sample)
        query.now = now
        newest = try store.timeline(query).items
    }

    /// How many stored items match, over every provider.
    public var total: Int { counts.reduce(0) { $0 + $1.matching } }

    /// The test notification: the newest matches.
    public var digest: NotificationDigest { NotificationDigest(rule: rule.name, items: newest, total: newest.count) }
}
