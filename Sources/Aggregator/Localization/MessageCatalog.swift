/// One language's messages, ready for look-up: a parsed ``PortableObject`` keyed by context
/// and id, with the language's ``PluralRule``.
public struct MessageCatalog: Sendable {
    /// The language's tag (`en`, `zh-Hans`): the catalog file's name.
    public let language: String
    public let pluralRule: PluralRule
    /// The steps ``CountFormat`` shortens counts by, smallest first.
    public let countUnits: [(size: Int, name: String)]
    private let messages: [String: [String]]

    static let englishCountUnits: [(size: Int, name: String)] = [(1_000, "k"), (1_000_000, "M")]

    /// English without a catalog: every message is its own id.
    public static let source = MessageCatalog(language: "en", pluralRule: .english, messages: [:])

    init(
        language: String, pluralRule: PluralRule, countUnits: [(size: Int, name: String)] = englishCountUnits, messages: [String: [String]]
    ) {
        self.language = language
        self.pluralRule = pluralRule
        self.countUnits = countUnits
        self.messages = messages
    }

    /// The catalog of `object`; untranslated entries (empty msgstr) fall back to the id.
    public init(language: String, object: PortableObject) throws(PluralRule.SyntaxError) {
        let rule = try object.header["Plural-Forms"].map { (header) throws(PluralRule.SyntaxError) in try PluralRule(header: header) }
        var messages: [String: [String]] = [:]
        for entry in object.entries where !entry.translations.allSatisfy(\.isEmpty) {
            messages[Self.key(entry.id, context: entry.context)] = entry.translations
        }
        var units: [(size: Int, name: String)] = []
        for step in (object.header["X-Count-Units"] ?? "").split(separator: " ") {
            let pair = step.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let size = Int(pair[0]), size > 1 { units.append((size, String(pair[1]))) }
        }
        self.init(
            language: language, pluralRule: rule ?? .english,
            countUnits: units.isEmpty ? Self.englishCountUnits : units.sorted { $0.size < $1.size },
            messages: messages)
    }

    static func key(_ id: String, context: String?) -> String {
        context.map { $0 + "\u{04}" + id } ?? id
    }

    /// The translation of `id`, or `id` itself when the catalog lacks it.
    public func text(_ id: String, context: String? = nil) -> String {
        guard let forms = messages[Self.key(id, context: context)], let first = forms.first, !first.isEmpty else { return id }
        return first
    }

    /// The form of `id`/`pluralID` that `count` takes in this language.
    public func text(_ id: String, plural pluralID: String, count: Int, context: String? = nil) -> String {
        if let forms = messages[Self.key(id, context: context)] {
            let form = forms[min(pluralRule.form(for: count), forms.count - 1)]
            if !form.isEmpty { return form }
        }
        return PluralRule.english.form(for: count) == 0 ? id : pluralID
    }

    /// Whether the catalog holds a translation of `id`.
    public func contains(_ id: String, context: String? = nil) -> Bool { messages[Self.key(id, context: context)] != nil }
}
