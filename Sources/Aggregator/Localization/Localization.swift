import Foundation
import Synchronization

/// The catalogs aggr can speak and the one in use: the process's language, set once at
/// start-up by a front end, and a per-task override (`aggr serve` answers each request in
/// its reader's language).
public enum Localization {
    /// A request's or a test's language, over the process's for the task and its children.
    @TaskLocal public static var taskCatalog: MessageCatalog?

    private static let process = Mutex<MessageCatalog>(.source)
    private static let loaded = Mutex<[String: MessageCatalog]>([:])

    /// The catalog `localized(_:)` reads now.
    public static var current: MessageCatalog { taskCatalog ?? process.withLock { $0 } }

    /// Every language with a catalog: those built in (`po/*.po`) and those in the folder
    /// `AGGR_LOCALE_DIR` names, where a translator tries a new `.po` without rebuilding.
    ///
    /// Read once: `aggr serve` asks at every request.
    public static let available: Set<String> = {
        var languages = Set(EmbeddedCatalogs.files.keys)
        languages.insert("en")
        let names = localFolder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) } ?? []
        for name in names where name.hasSuffix(".po") { languages.insert(String(name.dropLast(3))) }
        return languages
    }()

    private static let localFolder: String? = getenv("AGGR_LOCALE_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }

    /// The catalog of `language` (a tag among ``available``), parsed once.
    ///
    /// English's source catalog when there is none. A broken catalog file is an error naming its line.
    public static func catalog(_ language: String) throws -> MessageCatalog {
        if let cached = loaded.withLock({ $0[language] }) { return cached }
        var text: String?
        var file = "po/\(language).po"
        if let localFolder {
            let path = localFolder + "/" + language + ".po"
            if case .bytes(let bytes) = LocalFile.contents(of: path, limit: 64 << 20) {
                text = String(decoding: bytes, as: UTF8.self)
                file = path
            }
        }
        text = text ?? EmbeddedCatalogs.files[language]
        guard let text else { return .source }
        let catalog = try MessageCatalog(language: language, object: PortableObject(parsing: text, file: file))
        loaded.withLock { $0[language] = catalog }
        return catalog
    }

    /// The current language's name in itself (`English`, `简体中文`), for a language switch.
    public static var languageName: String { localized("English", context: "the language's own name") }

    /// Makes `language` the process's language.
    public static func use(_ language: String) throws {
        let catalog = try catalog(language)
        process.withLock { $0 = catalog }
    }

    /// The language to speak: `--lang`, then the config's `"language"`, then the environment.
    ///
    /// English when none names a language aggr has. An unknown explicit choice is an error.
    public static func choose(flag: String?, configured: String?, environment: [String: String]) throws(LanguageError) -> String {
        let available = available
        for (value, origin) in [(flag, "--lang"), (configured, "\"language\"")] {
            guard let value, !value.isEmpty else { continue }
            guard let found = Language.match(value, among: available) else {
                throw LanguageError(origin: origin, value: value, available: available.sorted())
            }
            return found
        }
        return Language.fromEnvironment(environment, among: available) ?? "en"
    }
}

/// A language that was asked for by name but has no catalog.
public struct LanguageError: Error, Sendable, CustomStringConvertible {
    public var origin: String
    public var value: String
    public var available: [String]
    public var description: String {
        localized("\(origin): no catalog for language \"\(value)\" (have: \(available.joined(separator: ", ")))")
    }
}

/// `key` in the current language (``Localization/current``), its arguments filled in.
public func localized(_ key: LocalizedKey, context: String? = nil) -> String {
    key.filling(Localization.current.text(key.id, context: context))
}

/// The form of `singular`/`plural` that `count` takes in the current language: "1 reply",
/// "3 replies"; Chinese has one form.
public func localized(_ singular: LocalizedKey, plural: LocalizedKey, count: Int, context: String? = nil) -> String {
    let template = Localization.current.text(singular.id, plural: plural.id, count: count, context: context)
    // The source's own singular takes its own arguments; any other form (the source's plural
    // or a translation, which follows msgid_plural's placeholders, as gettext's do) the plural's.
    return (template == singular.id ? singular : plural).filling(template)
}
