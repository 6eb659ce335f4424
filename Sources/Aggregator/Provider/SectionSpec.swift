import Foundation

/// A section as written in providers.json: `kind[/argument][?key=value&…]`, parsed and
/// checked against the provider type's metadata.
public struct SectionSpec: Sendable, Hashable {
    /// The text as configured, with credentials redacted.
    ///
    /// It is the section's key in the store and everywhere it is shown (``SecretRedactor``);
    /// the real values stay in ``arguments`` and ``options``, which only the fetch reads.
    public var key: String
    public var kind: String
    /// The `/`-separated argument parts (one part for `rest` arguments).
    public var arguments: [String]
    /// Query options in the order written.
    public var options: [String: String]

    /// The whole argument as one string (`swiftlang/swift`), or nil when there is none.
    public var argument: String? { arguments.isEmpty ? nil : arguments.joined(separator: "/") }

    public init(key: String, kind: String, arguments: [String] = [], options: [String: String] = [:]) {
        self.key = key
        self.kind = kind
        self.arguments = arguments
        self.options = options
    }

    /// Parses `text` for a provider type, throwing a message that says what is wrong.
    public static func parse(_ text: String, for metadata: ProviderMetadata) throws(SectionSpecError) -> SectionSpec {
        guard !text.isEmpty else {
            throw SectionSpecError(localized("empty section; write a kind such as \"\(metadata.sections.first?.name ?? "…")\""))
        }
        let kindEnd = text.firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
        let kindName = String(text[..<kindEnd])
        guard let kind = metadata.section(named: kindName) else {
            let names = metadata.sections.map(\.name)
            let hint =
                NearestName.suggestion(for: kindName, among: names).map { localized("did you mean \"\($0)\"?") }
                ?? localized("valid kinds: \(names.joined(separator: ", "))")
            throw SectionSpecError(localized("unknown section kind \"\(kindName)\" for type \(metadata.typeName) (\(hint))"))
        }
        var rest = text[kindEnd...]
        var query: Substring = ""
        var argumentText: Substring?
        if rest.first == "/" {
            rest = rest.dropFirst()
            if case .rest = kind.argument {
                argumentText = rest
            } else {
                let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
                argumentText = rest[..<queryStart]
                query = rest[queryStart...].dropFirst()
            }
        } else if rest.first == "?" {
            query = rest.dropFirst()
        }
        let arguments = try checkArgument(argumentText, of: kind)
        let options = try parseQuery(query, of: kind)
        return SectionSpec(key: SecretRedactor.redact(url: text), kind: kind.name, arguments: arguments, options: options)
    }

    private static func checkArgument(_ text: Substring?, of kind: SectionKind) throws(SectionSpecError) -> [String] {
        switch kind.argument {
        case .none:
            if text != nil {
                throw SectionSpecError(localized("section kind \"\(kind.name)\" takes no argument (write \"\(kind.usage)\")"))
            }
            return []
        case .rest(let label):
            guard let text, !text.isEmpty else {
                throw SectionSpecError(localized("section kind \"\(kind.name)\" needs a \(label): \(kind.usage)"))
            }
            return [String(text)]
        case .optionalSegment:
            guard let text else { return [] }
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 1, !text.isEmpty else {
                throw SectionSpecError(localized("section kind \"\(kind.name)\" takes at most one argument: \(kind.usage)"))
            }
            return [String(text)]
        case .segments(let names):
            let parts = text.map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) } ?? []
            guard parts.count == names.count, !parts.contains(where: \.isEmpty) else {
                throw SectionSpecError(
                    localized(
                        "section kind \"\(kind.name)\" needs an argument: \(kind.usage)",
                        plural: "section kind \"\(kind.name)\" needs \(names.count) arguments: \(kind.usage)", count: names.count))
            }
            return parts
        }
    }

    private static func parseQuery(_ query: Substring, of kind: SectionKind) throws(SectionSpecError) -> [String: String] {
        var options: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodePercent(parts[0])
            let value = parts.count > 1 ? decodePercent(parts[1]) : ""
            guard let spec = kind.options.first(where: { $0.name == name }) else {
                let names = kind.options.map(\.name)
                let hint =
                    NearestName.suggestion(for: name, among: names).map { localized(" (did you mean \"\($0)\"?)") }
                    ?? (names.isEmpty
                        ? localized(" (it takes no options)") : localized(" (valid options: \(names.joined(separator: ", ")))"))
                throw SectionSpecError(localized("unknown option \"\(name)\" for section kind \"\(kind.name)\"\(hint)"))
            }
            if let problem = spec.valueType.problem(with: value) {
                throw SectionSpecError("option \"\(name)\" \(problem)")
            }
            options[name] = value
        }
        return options
    }

    private static func decodePercent(_ text: Substring) -> String {
        let plusDecoded = text.replacingOccurrences(of: "+", with: " ")
        return plusDecoded.removingPercentEncoding ?? plusDecoded
    }
}

/// Why a section string is not valid for its provider type.
public struct SectionSpecError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension OptionValueType {
    /// A phrase saying why `text` is not a valid value, or nil when it is.
    public func problem(with text: String) -> String? {
        switch self {
        case .string: return nil
        case .object: return localized("must be an object")
        case .stringList: return localized("must be a list of strings")
        case .integer(let range):
            guard let number = Int(text), range.contains(number) else {
                return localized("must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \"\(text)\")")
            }
            return nil
        case .boolean:
            return text == "true" || text == "false" ? nil : localized("must be true or false (got \"\(text)\")")
        case .choice(let values):
            return values.contains(text) ? nil : localized("must be one of \(values.joined(separator: ", ")) (got \"\(text)\")")
        case .url:
            return WebURL.isHTTP(text) ? nil : localized("must be an http or https URL (got \"\(text)\")")
        }
    }
}
