import Foundation

/// `"webhook": URL` or `"webhook_env": VARIABLE` (and `"secret_env"`): POSTs the digest as
/// JSON, signed with `X-Aggr-Signature: sha256=<hex HMAC>` when the rule names a secret,
/// retrying after the notifier's delays on a network error or a non-2xx answer.
///
/// `webhook_env` reads the URL from the watch's environment when it sends: for URLs that are
/// secrets themselves (Slack's, Discord's), kept out of files and databases.
struct WebhookChannel: NotificationChannel {
    static let name = NotificationDelivery.Channel.webhook
    static let keys = ["webhook", "webhook_env", "secret_env"]
    /// The URL as configured; empty when ``urlEnv`` gives it.
    var url: String
    /// The environment variable holding the URL.
    var urlEnv: String?
    /// The environment variable holding the HMAC-SHA256 key.
    var secretEnv: String?

    static func configured(by rule: NotificationRuleEntry) throws(ConfigError) -> WebhookChannel? {
        var channel: WebhookChannel?
        if let webhook = rule.field("webhook") {
            let text = try rule.reader.string(webhook, at: "\(rule.path).webhook")
            guard WebURL.isHTTP(text) else {
                throw rule.fail("webhook", localized("must be an http or https URL (got \"\(SecretRedactor.origin(of: text))…\")"))
            }
            channel = WebhookChannel(url: text)
        }
        if let variable = rule.field("webhook_env") {
            guard channel == nil else { throw rule.fail("webhook_env", localized("gives the URL; the rule has a \"webhook\" already")) }
            let name = try rule.reader.tokenEnv(variable, at: "\(rule.path).webhook_env", secret: "URL", example: "AGGR_TEAM_WEBHOOK")
            channel = WebhookChannel(url: "", urlEnv: name)
        }
        if let secret = rule.field("secret_env") {
            let variable = try rule.reader.tokenEnv(
                secret, at: "\(rule.path).secret_env", secret: "secret", example: "AGGR_WEBHOOK_SECRET")
            guard channel != nil else { throw rule.fail("secret_env", localized("signs the webhook; the rule has no \"webhook\"")) }
            channel?.secretEnv = variable
        }
        return channel
    }

    func deliver(
        _ digest: NotificationDigest, for rule: NotificationRule, event: String, through notifier: Notifier
    ) async
        -> NotificationDelivery
    {
        var url = url
        if let variable = urlEnv {
            guard let value = notifier.environment[variable], WebURL.isHTTP(value) else {
                let problem =
                    notifier.environment[variable, default: ""].isEmpty ? localized("is not set") : localized("is not an http or https URL")
                return .init(
                    rule: rule.name, channel: Self.name, succeeded: false,
                    detail: localized("not sent: \(variable) \(problem) (notify rule \"\(rule.name)\" posts to it)"))
            }
            url = value
        }
        let body = digest.webhookBody(event: event)
        var headers = [("Content-Type", "application/json"), ("X-Aggr-Event", event)]
        var secrets: [String] = []
        if let variable = secretEnv {
            guard let secret = notifier.environment[variable], !secret.isEmpty else {
                return .init(
                    rule: rule.name, channel: Self.name, succeeded: false,
                    detail: localized("not sent: \(variable) is not set (notify rule \"\(rule.name)\" signs with it)"))
            }
            secrets.append(secret)
            headers.append(("X-Aggr-Signature", "sha256=" + Notifier.signature(of: body, key: secret)))
        }
        // Scheme and host only: webhook URLs carry their secret in the path as often as in
        // the query (Discord, Slack).
        let shown = SecretRedactor.origin(of: url)
        secrets += SecretRedactor.pathSecrets(of: url)
        var lastProblem = ""
        let delays = notifier.retryDelays
        for attempt in 0...delays.count {
            if attempt > 0 {
                do {
                    try await Task.sleep(nanoseconds: UInt64(delays[attempt - 1] * 1_000_000_000))
                } catch {
                    break
                }
            }
            do {
                let response = try await notifier.http.send(
                    HTTPRequest(url: url, method: "POST", headers: headers, body: body, timeoutSeconds: rule.timeout.seconds))
                if (200..<300).contains(response.status) {
                    let tries = attempt == 0 ? "" : localized(" after \(attempt + 1) attempts")
                    return .init(
                        rule: rule.name, channel: Self.name, succeeded: true,
                        detail: localized("\(shown) answered \(response.status)\(tries)"))
                }
                lastProblem = localized("\(shown) answered \(response.status)")
            } catch {
                let message = "\(error)".replacingOccurrences(of: SecretRedactor.redact(url: url), with: shown)
                lastProblem = SecretRedactor.redact(text: message.replacingOccurrences(of: url, with: shown), secrets: secrets)
            }
        }
        return .init(rule: rule.name, channel: Self.name, succeeded: false, detail: localized("gave up: \(lastProblem)"))
    }
}
