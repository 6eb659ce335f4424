import Aggregator
import Foundation

/// Any source a program can read: runs a command (argv, no shell) that prints items as JSON
/// lines in the output contract's shape, or an RSS, Atom or JSON Feed document.
///
///     { "id": "mail", "type": "exec",
///       "options": { "command": ["/usr/local/bin/unread-mail", "--json"], "timeout": "20s",
///                    "env": { "MAIL_HOST": "imap.example.com" } } }
///
/// The command sees only the variables in `env` (pass `PATH` there if it needs one).
public struct CommandProvider: Provider {
    /// The `type` of this provider's entries.
    public static let typeName = "exec"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "Command",
        summary: localized("Any program that prints contract JSON lines or an RSS/Atom/JSON Feed document."),
        sections: [SectionKind("run", summary: localized("One run of the command (the default section)"))],
        options: [
            OptionSpec("command", .stringList, summary: localized("The program and its arguments, no shell")),
            OptionSpec("timeout", .string, summary: localized("Longest run, such as 30s or 2m"), default: "30s"),
            OptionSpec(
                "max_output", .integer(1_024...67_108_864), summary: localized("Most bytes of standard output read"), default: "8388608"),
            OptionSpec("env", .object, summary: localized("The only environment variables the command sees")),
        ],
        auth: .none, defaultInterval: TimeSpan(seconds: 900), defaultSections: ["run"])

    public let configuration: ProviderConfiguration
    let argv: [String]
    let timeout: TimeSpan
    let environment: [String: String]

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        guard case .array(let parts)? = configuration.options["command"] else {
            throw configuration.error(
                at: "options", localized("needs \"command\": the program and its arguments, such as [\"/usr/bin/my-feed\", \"--json\"]"))
        }
        argv = parts.compactMap(\.stringValue)
        let timeoutText = configuration.stringOption("timeout") ?? "30s"
        guard let span = TimeSpan(parsing: timeoutText), span.seconds > 0 else {
            throw configuration.error(at: "options.timeout", localized("bad duration \"\(timeoutText)\" (write e.g. 30s, 2m)"))
        }
        timeout = span
        var environment: [String: String] = [:]
        if case .object(let members)? = configuration.options["env"] {
            for member in members {
                guard let value = member.value.stringValue else {
                    throw configuration.error(at: "options.env.\(member.key)", localized("must be a string"))
                }
                environment[member.key] = value
            }
        }
        self.environment = environment
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let name = (argv[0] as NSString).lastPathComponent
        let runner = CommandRunner(
            argv: argv, environment: environment, timeoutSeconds: timeout.seconds,
            maxOutputBytes: configuration.integerOption("max_output", default: 8_388_608))
        let output: CommandRunner.Output
        do {
            output = try await runner.run(searchPath: context.environment["PATH"])
        } catch let failure as CommandRunner.Failure {
            let detail: String
            switch failure {
            case .notFound(let command): detail = localized("command \"\(command)\" not found (give an absolute path or one on PATH)")
            case .timedOut(let seconds, let stderr):
                detail = localized("\(name) ran longer than \(seconds) s and was stopped") + excerpt(stderr)
            case .tooMuchOutput(let limit): detail = localized("\(name) printed more than \(limit) bytes (options.max_output)")
            case .launch(let reason): detail = localized("\(name) could not start: \(reason)")
            }
            throw ProviderError.unexpectedPayload(detail: detail)
        }
        let stderr = String(decoding: output.stderr, as: UTF8.self)
        guard output.status == 0 else {
            throw ProviderError.unexpectedPayload(detail: localized("\(name) exited with status \(output.status)") + excerpt(stderr))
        }
        let described = Section(provider: configuration.id, key: section.key, title: name)
        let text = String(decoding: output.stdout, as: UTF8.self)
        let start = text.first { !$0.isWhitespace }
        if start == "<" || (start == "{" && text.contains("jsonfeed.org")) {
            let feed: Feed
            do {
                feed = try FeedParser(url: "exec:\(name)", now: context.now).parse(output.stdout)
            } catch {
                throw ProviderError.unexpectedPayload(detail: "\(error)" + excerpt(stderr))
            }
            let items = FeedItemMapper(provider: configuration.id, section: section.key, feedURL: "exec:\(name)", now: context.now).items(
                feed)
            return SectionFetch(
                section: Section(provider: configuration.id, key: section.key, title: feed.title.isEmpty ? name : feed.title), items: items)
        }
        do {
            let items = try ItemJSONReader.items(ndjson: text).map { item in
                var item = item
                item.provider = configuration.id
                item.section = section.key
                return item
            }
            return SectionFetch(section: described, items: items)
        } catch {
            throw ProviderError.unexpectedPayload(detail: localized("\(name) printed a bad line: \(error)") + excerpt(stderr))
        }
    }

    func excerpt(_ stderr: String) -> String {
        let line = TerminalText.excerpt(stderr, limit: 160)
        return line.isEmpty ? "" : " (stderr: \(line))"
    }
}
