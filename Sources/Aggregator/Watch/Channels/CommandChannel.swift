import Foundation

/// `"command": [program, args…]`: runs the program without a shell, the matches as NDJSON
/// on its standard input and `AGGR_RULE`, `AGGR_COUNT` in its environment.
struct CommandChannel: NotificationChannel {
    static let name = NotificationDelivery.Channel.command
    static let keys = ["command"]
    /// The program and its arguments.
    var argv: [String]

    static func configured(by rule: NotificationRuleEntry) throws(ConfigError) -> CommandChannel? {
        guard let command = rule.field("command") else { return nil }
        guard case .array(let parts) = command, !parts.isEmpty, parts.allSatisfy({ $0.stringValue?.isEmpty == false }) else {
            throw rule.fail(
                "command", localized("must be the program and its arguments, such as [\"/usr/local/bin/my-hook\", \"--quiet\"]"))
        }
        return CommandChannel(argv: parts.compactMap(\.stringValue))
    }

    func deliver(
        _ digest: NotificationDigest, for rule: NotificationRule, event: String, through notifier: Notifier
    ) async
        -> NotificationDelivery
    {
        let environment = notifier.environment
        let name = (argv[0] as NSString).lastPathComponent
        var childEnvironment = ["AGGR_RULE": rule.name, "AGGR_COUNT": "\(digest.total)"]
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"] {
            if let value = environment[key] { childEnvironment[key] = value }
        }
        let runner = CommandRunner(
            argv: argv, environment: childEnvironment, timeoutSeconds: rule.timeout.seconds,
            maxOutputBytes: Notifier.maximumCommandOutput, input: digest.ndjson)
        do {
            let output = try await runner.run(searchPath: environment["PATH"])
            guard output.status == 0 else {
                let stderr = TerminalText.excerpt(String(decoding: output.stderr, as: UTF8.self), limit: 200)
                return .init(
                    rule: rule.name, channel: Self.name, succeeded: false,
                    detail: localized("\(name) exited with status \(output.status)") + (stderr.isEmpty ? "" : ": \(stderr)"))
            }
            return .init(rule: rule.name, channel: Self.name, succeeded: true, detail: localized("\(name) ran"))
        } catch let failure as CommandRunner.Failure {
            let detail =
                switch failure {
                case .notFound(let command): localized("command \"\(command)\" not found (give an absolute path or one on PATH)")
                case .timedOut(let seconds, _): localized("\(name) ran longer than \(seconds) s and was stopped")
                case .tooMuchOutput(let limit): localized("\(name) printed more than \(limit) bytes")
                case .launch(let reason): localized("\(name) could not start: \(reason)")
                }
            return .init(rule: rule.name, channel: Self.name, succeeded: false, detail: detail)
        } catch {
            return .init(rule: rule.name, channel: Self.name, succeeded: false, detail: "\(name): \(error)")
        }
    }
}
