import Foundation

/// A notification rule as a front end takes it (`aggr notify add`): the keys of one
/// providers.json `notify` entry, checked when it is saved.
public struct NotificationRuleDraft: Sendable, Equatable {
    /// The rule's name (`[a-z0-9][a-z0-9_-]*`).
    public var name: String
    /// The `when` filter.
    public var when: String
    /// `webhook`: the URL posted to.
    public var webhook: String?
    /// `webhook_env`: the environment variable holding the URL.
    public var webhookEnv: String?
    /// `secret_env`: the environment variable holding the webhook's HMAC key.
    public var secretEnv: String?
    /// `command`: the program and its arguments.
    public var command: [String]?
    /// `desktop`: a desktop notification.
    public var desktop = false
    /// `timeout`, as written (`30s`).
    public var timeout: String?

    public init(name: String, when: String) {
        self.name = name
        self.when = when
    }

    /// The draft as a `notify` entry of providers.json.
    public var entry: JSONValue {
        var members = [JSONMember("name", .string(name)), JSONMember("when", .string(when))]
        if let webhook { members.append(JSONMember("webhook", .string(webhook))) }
        if let webhookEnv { members.append(JSONMember("webhook_env", .string(webhookEnv))) }
        if let secretEnv { members.append(JSONMember("secret_env", .string(secretEnv))) }
        if let command { members.append(JSONMember("command", .array(command.map { .string($0) }))) }
        if desktop { members.append(JSONMember("desktop", .bool(true))) }
        if let timeout { members.append(JSONMember("timeout", .string(timeout))) }
        return .object(members)
    }
}
