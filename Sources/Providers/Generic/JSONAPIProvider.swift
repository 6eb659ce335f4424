import Aggregator
import Foundation

/// Any JSON API, through key paths in config: where the list is, where each field is.
///
///     { "id": "hn", "type": "json",
///       "options": { "url": "https://hn.algolia.com/api/v1/search_by_date?tags=story",
///                    "items": "hits[*]",
///                    "fields": { "title": "title", "link": "url", "id": "objectID",
///                                "author": "author", "date": "created_at" } } }
public struct JSONAPIProvider: Provider {
    static let fieldNames = ["title", "link", "id", "author", "date", "summary", "image"]

    /// The `type` of this provider's entries.
    public static let typeName = "json"

    public static let metadata = ProviderMetadata(
        typeName: typeName, displayName: "JSON API",
        summary: localized("Any JSON API: key paths in config say where the list and each field are."),
        sections: [
            SectionKind("api", summary: localized("The URL in the url option (the default section)")),
            SectionKind("url", summary: localized("This URL, with the same key paths"), argument: .rest("url")),
        ],
        options: [
            OptionSpec("url", .url, summary: localized("The API URL")),
            OptionSpec("items", .string, summary: localized("Key path of the list: data.list, result[*]")),
            OptionSpec(
                "fields", .object, summary: localized("Key path per field: title and link required; id, author, date, summary, image")),
            OptionSpec("headers", .object, summary: "Extra request headers; {token} is replaced by the token_env value"),
            OptionSpec("date_format", .string, summary: localized("Date pattern when dates are unusual (yyyy-MM-dd HH:mm)")),
            OptionSpec(
                "sign", .object,
                summary:
                    "Sign each request: {algorithm: hmac-sha256|hmac-sha1|sha1|md5, secret_env, param, timestamp_param, include, encoding: hex|base64, header}"
            ),
        ],
        auth: .optional(defaultTokenEnv: "AGGR_JSON_TOKEN", note: "only used where a header says {token}"),
        defaultInterval: TimeSpan(seconds: 1_800), defaultSections: ["api"])

    public let configuration: ProviderConfiguration
    let items: JSONKeyPath
    let fields: [String: JSONKeyPath]
    /// `options.sign` checked, without its secret (read from `secret_env` at each fetch).
    let signing: RequestSigning?

    public init(configuration: ProviderConfiguration) throws(ConfigError) {
        self.configuration = configuration
        guard let itemsText = configuration.stringOption("items") else {
            throw configuration.error(at: "options", "needs \"items\": the key path of the list, such as \"data.list\" or \"result[*]\"")
        }
        guard let itemsPath = JSONKeyPath(itemsText) else {
            throw configuration.error(at: "options.items", "\"\(itemsText)\" is not a key path (write data.list, result[*], a.b[0].c)")
        }
        items = itemsPath
        fields = try GenericFieldSpec.read(configuration, names: Self.fieldNames) { text, path throws(ConfigError) in
            guard let keyPath = JSONKeyPath(text) else { throw configuration.error(at: path, localized("\"\(text)\" is not a key path")) }
            return keyPath
        }
        if configuration.sections.contains(where: { $0.kind == "api" }), configuration.stringOption("url") == nil {
            throw configuration.error(at: "options", "needs \"url\", or sections such as \"url/https://api.example.com/list\"")
        }
        if case .object(let headers)? = configuration.options["headers"] {
            for header in headers where header.value.stringValue == nil {
                throw configuration.error(at: "options.headers.\(header.key)", localized("must be a string"))
            }
        }
        signing = try configuration.options["sign"].map { value throws(ConfigError) in try RequestSigning(value, configuration) }
    }

    public func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch {
        let url = section.kind == "url" ? section.argument ?? "" : configuration.stringOption("url") ?? ""
        var headers = [("Accept", "application/json")]
        if case .object(let extra)? = configuration.options["headers"] {
            let token = context.token(for: configuration, metadata: Self.metadata) ?? ""
            for header in extra {
                headers.append((header.key, (header.value.stringValue ?? "").replacingOccurrences(of: "{token}", with: token)))
            }
        }
        let described = Section(provider: configuration.id, key: section.key, title: URLComponents(string: url)?.host ?? url)
        var address = url
        if let signing {
            let signed = try signing.signer(context.environment, provider: configuration.id, section: section.key).sign(
                url: url, now: Date())
            address = signed.url
            headers += signed.headers
        }
        // A signed request changes with its timestamp: the body hash still tells "unchanged".
        guard let response = try await context.get(address, headers: headers) else { return SectionFetch(section: described, items: nil) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes: response.body, mode: .upstream)
        } catch {
            throw ProviderError.unexpectedPayload(detail: localized("not JSON: \(error)"))
        }
        let entries = items.values(in: root).flatMap { value -> [JSONValue] in
            if case .array(let elements) = value { return elements }
            return [value]
        }
        guard !entries.isEmpty else {
            var keys = ""
            if case .object(let members) = root { keys = localized(" (top-level keys: \(members.map(\.key).joined(separator: ", ")))") }
            throw ProviderError.unexpectedPayload(detail: localized("items path \"\(items)\" reached nothing\(keys)"))
        }
        let builder = GenericItemBuilder(
            provider: configuration.id, section: section.key, baseURL: response.url, now: context.now,
            dateFormat: configuration.stringOption("date_format"))
        var result: [Item] = []
        for (index, entry) in entries.enumerated() {
            let extracted = ExtractedFields { fields[$0]?.text(in: entry) }
            result.append(
                try builder.checkedItem(
                    extracted, index: index, locate: { localized("key path \"\(fields[$0]!)\" found nothing") },
                    excerpt: {
                        var writer = JSONWriter()
                        writer.value(entry)
                        return writer.output
                    }))
        }
        return SectionFetch(section: described, items: result)
    }
}

/// Reads the `fields` option shared by the generic types: known names, text values, title and
/// link required, each value compiled by `compile` (a key path or a selector).
enum GenericFieldSpec {
    static func read<T>(
        _ configuration: ProviderConfiguration, names: [String], compile: (String, String) throws(ConfigError) -> T
    ) throws(ConfigError) -> [String: T] {
        guard case .object(let members)? = configuration.options["fields"] else {
            throw configuration.error(at: "options", localized("needs \"fields\": where each field is, with at least title and link"))
        }
        var result: [String: T] = [:]
        for member in members {
            let path = "options.fields.\(member.key)"
            guard names.contains(member.key) else {
                let hint =
                    NearestName.suggestion(for: member.key, among: names).map { localized("did you mean \"\($0)\"?") }
                    ?? "fields: \(names.joined(separator: ", "))"
                throw configuration.error(at: "options.fields", localized("unknown field \"\(member.key)\" (\(hint))"))
            }
            guard let text = member.value.stringValue, !text.isEmpty else {
                throw configuration.error(at: path, localized("must be a non-empty string"))
            }
            result[member.key] = try compile(text, path)
        }
        for required in ["title", "link"] where result[required] == nil {
            throw configuration.error(at: "options.fields", "needs \"\(required)\"")
        }
        return result
    }
}
