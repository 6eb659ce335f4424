import Foundation

/// Sends a rule's digest through the channels the rule names: a command, a signed webhook,
/// a desktop notification.
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
            if let command = rule.command {
                group.addTask { await run(command, digest: digest, rule: rule) }
            }
            if let webhook = rule.webhook {
                group.addTask { await post(digest, to: webhook, rule: rule, event: event) }
            }
            if rule.desktop {
                group.addTask { await showOnDesktop(digest) }
            }
            var deliveries: [NotificationDelivery] = []
            for await delivery in group { deliveries.append(delivery) }
            return deliveries.sorted { $0.channel.rawValue < $1.channel.rawValue }
        }
    }

    /// The rule's command, with the items as NDJSON on its standard input and `AGGR_RULE`,
    /// `AGGR_COUNT` in its environment.
    func run(_ command: [String], digest: NotificationDigest, rule: NotificationRule) async -> NotificationDelivery {
        let name = (command[0] as NSString).lastPathComponent
        var childEnvironment = ["AGGR_RULE": rule.name, "AGGR_COUNT": "\(digest.total)"]
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"] {
            if let value = environment[key] { childEnvironment[key] = value }
        }
        let runner = CommandRunner(
            argv: command, environment: childEnvironment, timeoutSeconds: rule.timeout.seconds,
            maxOutputBytes: Self.maximumCommandOutput, input: digest.ndjson)
        do {
            let output = try await runner.run(searchPath: environment["PATH"])
            guard output.status == 0 else {
                let stderr = TerminalText.excerpt(String(decoding: output.stderr, as: UTF8.self), limit: 200)
                return .init(
                    rule: rule.name, channel: .command, succeeded: false,
                    detail: "\(name) exited with status \(output.status)" + (stderr.isEmpty ? "" : ": \(stderr)"))
            }
            return .init(rule: rule.name, channel: .command, succeeded: true, detail: "\(name) ran")
        } catch let failure as CommandRunner.Failure {
            let detail =
                switch failure {
                case .notFound(let command): "command \"\(command)\" not found (give an absolute path or one on PATH)"
                case .timedOut(let seconds, _): "\(name) ran longer than \(seconds) s and was stopped"
                case .tooMuchOutput(let limit): "\(name) printed more than \(limit) bytes"
                case .launch(let reason): "\(name) could not start: \(reason)"
                }
            return .init(rule: rule.name, channel: .command, succeeded: false, detail: detail)
        } catch {
            return .init(rule: rule.name, channel: .command, succeeded: false, detail: "\(name): \(error)")
        }
    }

    /// POSTs the digest as JSON, signed with `X-Aggr-Signature: sha256=<hex HMAC>` when the
    /// rule names a secret; retries after ``retryDelays`` on a network error or a non-2xx
    /// answer.
    func post(_ digest: NotificationDigest, to url: String, rule: NotificationRule, event: String) async -> NotificationDelivery {
        let body = digest.webhookBody(event: event)
        var headers = [("Content-Type", "application/json"), ("X-Aggr-Event", event)]
        var secrets: [String] = []
        if let variable = rule.secretEnv {
            guard let secret = environment[variable], !secret.isEmpty else {
                return .init(
                    rule: rule.name, channel: .webhook, succeeded: false,
                    detail: "not sent: \(variable) is not set (notify rule \"\(rule.name)\" signs with it)")
            }
            secrets.append(secret)
            headers.append(("X-Aggr-Signature", "sha256=" + Self.signature(of: body, key: secret)))
        }
        // Scheme and host only: webhook URLs carry their secret in the path as often as in
        // the query (Discord, Slack).
        let shown = SecretRedactor.origin(of: url)
        secrets += SecretRedactor.pathSecrets(of: url)
        var lastProblem = ""
        for attempt in 0...retryDelays.count {
            if attempt > 0 {
                do {
                    try await Task.sleep(nanoseconds: UInt64(retryDelays[attempt - 1] * 1_000_000_000))
                } catch {
                    break
                }
            }
            do {
                let response = try await http.send(
                    HTTPRequest(url: url, method: "POST", headers: headers, body: body, timeoutSeconds: rule.timeout.seconds))
                if (200..<300).contains(response.status) {
                    let tries = attempt == 0 ? "" : " after \(attempt + 1) attempts"
                    return .init(
                        rule: rule.name, channel: .webhook, succeeded: true, detail: "\(shown) answered \(response.status)\(tries)")
                }
                lastProblem = "\(shown) answered \(response.status)"
            } catch {
                let message = "\(error)".replacingOccurrences(of: SecretRedactor.redact(url: url), with: shown)
                lastProblem = SecretRedactor.redact(text: message.replacingOccurrences(of: url, with: shown), secrets: secrets)
            }
        }
        return .init(rule: rule.name, channel: .webhook, succeeded: false, detail: "gave up: \(lastProblem)")
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

    /// `notify-send` when it is on PATH, else OSC 9 on the terminal.
    func showOnDesktop(_ digest: NotificationDigest) async -> NotificationDelivery {
        if CommandRunner.resolve("notify-send", path: environment["PATH"]) != nil {
            // notify-send bodies may carry markup: escape it.
            let body = digest.text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            var childEnvironment: [String: String] = [:]
            for key in ["PATH", "HOME", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
                if let value = environment[key] { childEnvironment[key] = value }
            }
            let runner = CommandRunner(
                argv: ["notify-send", "--app-name=aggr", digest.title, body], environment: childEnvironment, timeoutSeconds: 10,
                maxOutputBytes: 65_536)
            do {
                let output = try await runner.run(searchPath: environment["PATH"])
                if output.status == 0 { return .init(rule: digest.rule, channel: .desktop, succeeded: true, detail: "notify-send") }
                return .init(
                    rule: digest.rule, channel: .desktop, succeeded: false, detail: "notify-send exited with status \(output.status)")
            } catch {
                return .init(rule: digest.rule, channel: .desktop, succeeded: false, detail: "notify-send: \(error)")
            }
        }
        guard let terminal else {
            return .init(rule: digest.rule, channel: .desktop, succeeded: false, detail: "no notify-send on PATH and no terminal")
        }
        // OSC 9 (iTerm2, kitty, WezTerm, foot…); the text carries no control character.
        terminal("\u{1B}]9;\(TerminalText.sanitize(digest.title + ": " + digest.text))\u{07}")
        return .init(rule: digest.rule, channel: .desktop, succeeded: true, detail: "terminal (OSC 9)")
    }
}

/// What became of one digest on one channel.
public struct NotificationDelivery: Sendable, Equatable {
    /// How a rule tells the user.
    public enum Channel: String, Sendable {
        case command, desktop, webhook
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
        "notify \(rule): \(channel.rawValue): \(succeeded ? "" : "failed: ")\(detail)"
    }
}
