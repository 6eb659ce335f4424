import Foundation

/// `"desktop": true`: `notify-send` when it is on PATH, else OSC 9 on the terminal.
struct DesktopChannel: NotificationChannel {
    static let name = NotificationDelivery.Channel.desktop
    static let keys = ["desktop"]

    static func configured(by rule: NotificationRuleEntry) throws(ConfigError) -> DesktopChannel? {
        guard let desktop = rule.field("desktop") else { return nil }
        guard case .bool(let on) = desktop else { throw rule.fail("desktop", localized("must be true or false")) }
        return on ? DesktopChannel() : nil
    }

    func deliver(
        _ digest: NotificationDigest, for rule: NotificationRule, event: String, through notifier: Notifier
    ) async
        -> NotificationDelivery
    {
        let environment = notifier.environment
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
                if output.status == 0 { return .init(rule: digest.rule, channel: Self.name, succeeded: true, detail: "notify-send") }
                return .init(
                    rule: digest.rule, channel: Self.name, succeeded: false,
                    detail: localized("notify-send exited with status \(output.status)"))
            } catch {
                return .init(rule: digest.rule, channel: Self.name, succeeded: false, detail: "notify-send: \(error)")
            }
        }
        guard let terminal = notifier.terminal else {
            return .init(
                rule: digest.rule, channel: Self.name, succeeded: false, detail: localized("no notify-send on PATH and no terminal"))
        }
        // OSC 9 (iTerm2, kitty, WezTerm, foot…); the text carries no control character.
        terminal("\u{1B}]9;\(TerminalText.sanitize(digest.title + ": " + digest.text))\u{07}")
        return .init(rule: digest.rule, channel: Self.name, succeeded: true, detail: "terminal (OSC 9)")
    }
}
