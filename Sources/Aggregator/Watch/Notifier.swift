import Foundation

/// Sends a rule's digest through the channels the rule names (``NotificationChannel``: a
/// command, a signed webhook, a desktop notification), and holds what they share.
///
/// Failures are reported, never thrown: a notification that cannot be delivered must not
/// stop a refresh. Secrets (the webhook key, credentials in the webhook URL) never appear
/// in what is reported.
public struct Notifier: Sendable {
    /// The most items handed to a channel per digest.
    public static let maximumItems = 100
    /// The most output a notification command may print.
    public static let maximumCommandOutput = 1 << 20

    public var http: any HTTPClient
    public var environment: [String: String]
    /// Waits before the 2nd, 3rd… webhook attempt.
    public var retryDelays: [TimeInterval] = [1, 2, 4, 8]
    /// Writes an OSC 9 notification to the user's terminal; nil when there is none.
    public var terminal: (@Sendable (String) -> Void)?

    /// A notifier; webhooks go through `http`, by default a client of their own
    /// (``deliveryClient()``), so a receiver that hangs never takes a connection slot a
    /// refresh needs.
    public init(
        http: (any HTTPClient)? = nil, environment: [String: String], terminal: (@Sendable (String) -> Void)? = nil
    ) {
        self.http = http ?? Self.deliveryClient()
        self.environment = environment
        self.terminal = terminal
    }

    /// Delivers `digest` for `rule` on each of its channels concurrently; `event` is the
    /// webhook's event name (`new_items`, or `test` from `aggr notify test`).
    public func send(
        _ digest: NotificationDigest, for rule: NotificationRule, event: String = "new_items"
    ) async
        -> [NotificationDelivery]
    {
        await withTaskGroup(of: NotificationDelivery.self) { group in
            for channel in rule.channels {
                group.addTask { await channel.deliver(digest, for: rule, event: event, through: self) }
            }
            var deliveries: [NotificationDelivery] = []
            for await delivery in group { deliveries.append(delivery) }
            return deliveries.sorted { $0.channel.rawValue < $1.channel.rawValue }
        }
    }

    /// The HTTP client webhooks use: apart from the refresh client and its per-host limit,
    /// with room for every rule at once (the ``DeliveryQueue`` bounds deliveries per rule and
    /// overall).
    public static func deliveryClient() -> CurlHTTPClient {
        var settings = HTTPClientSettings()
        settings.maxConcurrent = DeliveryQueue.overallLimit * 2
        settings.maxPerHost = DeliveryQueue.overallLimit * 2
        return CurlHTTPClient(settings: settings)
    }

    /// The lowercase hex HMAC-SHA256 of `body` keyed with `key`.
    public static func signature(of body: [UInt8], key: String) -> String {
        RequestSigner.hmacSHA256(body, key: key)
    }
}

/// What became of one digest on one channel.
public struct NotificationDelivery: Sendable, Equatable {
    /// How a rule tells the user: a channel's name.
    public struct Channel: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let command = Channel(rawValue: "command")
        public static let desktop = Channel(rawValue: "desktop")
        public static let webhook = Channel(rawValue: "webhook")
    }

    public var rule: String
    public var channel: Channel
    public var succeeded: Bool
    /// What happened, secrets removed: `my-hook ran`, `https://… answered 200 after 2 attempts`.
    public var detail: String

    public init(rule: String, channel: Channel, succeeded: Bool, detail: String) {
        self.rule = rule
        self.channel = channel
        self.succeeded = succeeded
        self.detail = detail
    }

    /// `notify mentions: command: my-hook ran`.
    public var line: String {
        succeeded
            ? localized("notify \(rule): \(channel.rawValue): \(detail)")
            : localized("notify \(rule): \(channel.rawValue): failed: \(detail)")
    }
}
