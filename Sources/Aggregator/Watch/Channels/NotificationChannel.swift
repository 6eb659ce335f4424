import Foundation

/// One way a notification rule tells the user: a command, a webhook, the desktop.
///
/// A channel reads its own keys of a `notify` rule (and throws the config error naming the
/// key at fault) and delivers a digest. A new channel is one file: a type conforming to
/// this, added to ``NotificationChannels/kinds``.
protocol NotificationChannel: Sendable {
    /// The channel's name in deliveries and logs.
    static var name: NotificationDelivery.Channel { get }
    /// The keys of a rule this channel reads.
    static var keys: [String] { get }
    /// The channel `rule` configures, or nil when it does not use this one.
    static func configured(by rule: NotificationRuleEntry) throws(ConfigError) -> Self?
    /// Sends `digest`; failures are reported in the delivery, never thrown, with secrets removed.
    func deliver(
        _ digest: NotificationDigest, for rule: NotificationRule, event: String, through notifier: Notifier
    ) async
        -> NotificationDelivery
}

/// Every kind of channel a rule may name.
enum NotificationChannels {
    static let kinds: [any NotificationChannel.Type] = [CommandChannel.self, DesktopChannel.self, WebhookChannel.self]
}

/// One `notify` rule of providers.json as a channel reads it: its keys, where it is, and the
/// config checks.
struct NotificationRuleEntry {
    var reader: ConfigReader
    /// `notify[<index>]`.
    var path: String
    var members: [JSONMember]

    /// The value of `key`, if the rule sets it.
    func field(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    func fail(_ key: String, _ message: String) -> ConfigError { reader.fail("\(path).\(key)", message) }
}
