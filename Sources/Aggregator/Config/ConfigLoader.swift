import Foundation

/// Reads providers.json and checks every entry against the registered provider types.
///
/// Checking is complete before anything runs: the first problem found is thrown as a
/// ``ConfigError`` naming the file and key path.
public struct ConfigLoader: Sendable {
    public var registry: ProviderRegistry

    public init(registry: ProviderRegistry) {
        self.registry = registry
    }

    static let topLevelKeys = ["providers", "timeline", "retention", "views", "notify", "serve", "keys", "language"]
    static let providerKeys = [
        "id", "type", "sections", "options", "api_url", "web_url", "token_env", "cookie_env", "interval", "limit",
        "include", "exclude", "enabled", "titles", "checkin", "full_text",
    ]

    /// Loads and checks the file at `path`, shown in errors as `displayName` (default: the path).
    public func load(path: String, displayName: String? = nil) throws(ConfigError) -> Configuration {
        let name = displayName ?? path
        guard let bytes = try Self.contents(of: path, displayName: name) else {
            throw ConfigError(file: name, location: "", message: Self.problem(localized("does not exist")))
        }
        return try parse(bytes: bytes, file: name)
    }

    /// The largest config file read: a real one is a few kilobytes, and reading (and parsing)
    /// a runaway file whole would cost many times its size in memory.
    public static let maximumBytes = 4 << 20

    /// The bytes of the config file at `path`, nil when there is none; a file that is there
    /// but cannot be read is an error, and so is one past ``maximumBytes`` (refused unread).
    static func contents(of path: String, displayName: String) throws(ConfigError) -> [UInt8]? {
        switch LocalFile.contents(of: path, limit: maximumBytes) {
        case .bytes(let bytes):
            return bytes
        case .tooLarge(let size):
            throw ConfigError(
                file: displayName, location: "",
                message: localized(
                    "is \(size >> 20) MiB; a config file over \(maximumBytes >> 20) MiB is refused (is this the right file?)"))
        case .missing:
            return nil
        case .unreadable:
            throw ConfigError(file: displayName, location: "", message: problem(localized("cannot be read")))
        }
    }

    /// A config file's problem with the way out: writing a starter config.
    static func problem(_ reason: String) -> String {
        localized("\(reason) (run `aggr init` to create a starter config)")
    }

    /// Parses and checks config text; `file` names it in errors.
    public func parse(bytes: [UInt8], file: String) throws(ConfigError) -> Configuration {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ConfigError(
                file: file, location: localized("line \(error.line), column \(error.column)"),
                message: localized("invalid JSON: \(error.message)"))
        }
        var reader = ConfigReader(file: file)
        return try reader.configuration(from: document, registry: registry)
    }
}

/// Walks the parsed document, tracking the key path for errors.
struct ConfigReader {
    let file: String

    func fail(_ path: String, _ message: String) -> ConfigError {
        ConfigError(file: file, location: path, message: message)
    }

    func members(_ value: JSONValue, at path: String, allowed: [String]) throws(ConfigError) -> [JSONMember] {
        guard case .object(let members) = value else {
            throw fail(path, localized("must be an object, not \(value.typeName)"))
        }
        for member in members where !allowed.contains(member.key) {
            let hint =
                NearestName.suggestion(for: member.key, among: allowed).map { localized("did you mean \"\($0)\"?") }
                ?? localized("valid keys: \(allowed.joined(separator: ", "))")
            throw fail(path, localized("unknown key \"\(member.key)\" (\(hint))"))
        }
        return members
    }

    func string(_ value: JSONValue, at path: String) throws(ConfigError) -> String {
        guard let text = value.stringValue else { throw fail(path, localized("must be a string, not \(value.typeName)")) }
        return text
    }

    func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let number = value.integerValue, range.contains(number) else {
            throw fail(path, localized("must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
        }
        return number
    }

    /// A filter expression at `path`, parsed and type-checked now so a bad filter stops the load.
    func filter(_ value: JSONValue, at path: String) throws(ConfigError) -> (String, FilterExpression) {
        let text = try string(value, at: path)
        do {
            return (text, try FilterParser.parse(text))
        } catch {
            throw fail(path, "\(error)")
        }
    }

    func timeSpan(_ value: JSONValue, at path: String) throws(ConfigError) -> TimeSpan {
        let text = try string(value, at: path)
        guard let span = TimeSpan(parsing: text), span.seconds > 0 else {
            throw fail(path, localized("bad duration \"\(text)\" (write e.g. 90s, 30m, 1h30m, 2d)"))
        }
        return span
    }

    func url(_ value: JSONValue, at path: String) throws(ConfigError) -> String {
        let text = try string(value, at: path)
        guard WebURL.isHTTP(text) else { throw fail(path, localized("must be an http or https URL (got \"\(text)\")")) }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    mutating func configuration(from document: JSONValue, registry: ProviderRegistry) throws(ConfigError) -> Configuration {
        var configuration = Configuration(file: file)
        for member in try members(document, at: "", allowed: ConfigLoader.topLevelKeys) {
            switch member.key {
            case "providers": configuration.providers = try providers(member.value, registry: registry)
            case "timeline": configuration.timeline = try timeline(member.value)
            case "retention": configuration.retention = try retention(member.value)
            case "notify": configuration.notify = try notificationRules(member.value)
            case "serve": configuration.serve = try serveSettings(member.value)
            case "keys": configuration.keys = try readerKeys(member.value)
            case "language":
                let text = try string(member.value, at: "language")
                let available = Localization.available
                guard let language = Language.match(text, among: available) else {
                    throw fail("language", localized("no catalog for \"\(text)\" (have: \(available.sorted().joined(separator: ", ")))"))
                }
                configuration.language = language
            default: configuration.views = try views(member.value)
            }
        }
        return configuration
    }

    func timeline(_ value: JSONValue) throws(ConfigError) -> TimelineSettings {
        var settings = TimelineSettings()
        for member in try members(value, at: "timeline", allowed: ["limit", "exclude"]) {
            let path = "timeline.\(member.key)"
            if member.key == "limit" {
                settings.limit = try integer(member.value, at: path, in: 1...10_000)
            } else {
                let (text, parsed) = try filter(member.value, at: path)
                settings.exclude = text
                settings.excludeFilter = parsed
            }
        }
        return settings
    }

    func retention(_ value: JSONValue) throws(ConfigError) -> RetentionPolicy {
        var policy = RetentionPolicy()
        for member in try members(value, at: "retention", allowed: ["max_items", "max_age"]) {
            let path = "retention.\(member.key)"
            if member.key == "max_items" {
                policy.maxItemsPerProvider = member.value == .null ? nil : try integer(member.value, at: path, in: 1...100_000_000)
            } else {
                policy.maxAge = member.value == .null ? nil : try timeSpan(member.value, at: path)
            }
        }
        return policy
    }

    func views(_ value: JSONValue) throws(ConfigError) -> [NamedView] {
        guard case .object(let members) = value else { throw fail("views", localized("must be an object of name: filter")) }
        var views: [NamedView] = []
        for member in members {
            guard ProviderIdentifier.isValid(member.key) else {
                throw fail("views", localized("view name \"\(member.key)\" must match [a-z0-9][a-z0-9_-]*"))
            }
            let (text, parsed) = try filter(member.value, at: "views.\(member.key)")
            views.append(NamedView(name: member.key, expression: text, filter: parsed))
        }
        return views
    }

    func providers(_ value: JSONValue, registry: ProviderRegistry) throws(ConfigError) -> [ProviderConfiguration] {
        guard case .array(let entries) = value else { throw fail("providers", localized("must be an array, not \(value.typeName)")) }
        var result: [ProviderConfiguration] = []
        var firstUse: [String: String] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "providers[\(index)]"
            let configuration = try provider(entry, at: path, registry: registry)
            if let earlier = firstUse[configuration.id] {
                throw fail("\(path).id", localized("duplicate id \"\(configuration.id)\" (already used by \(earlier))"))
            }
            firstUse[configuration.id] = path
            result.append(configuration)
        }
        return result
    }
}
