import Foundation

/// Edits providers.json: changes are made on the parsed document (keeping every other
/// entry and its order), checked with the real loader, then written atomically, so an
/// interrupted or invalid edit leaves the old file intact.
public struct ConfigEditor: Sendable {
    public var path: String
    public var registry: ProviderRegistry

    public init(path: String, registry: ProviderRegistry) {
        self.path = path
        self.registry = registry
    }

    /// The current document, or an empty config when the file does not exist yet.
    public func document() throws(ConfigError) -> JSONValue {
        guard let bytes = try ConfigLoader.contents(of: path, displayName: path) else {
            return .object([JSONMember("providers", .array([]))])
        }
        do {
            return try JSONParser.parse(bytes: bytes)
        } catch {
            throw ConfigError(
                file: path, location: localized("line \(error.line), column \(error.column)"),
                message: localized("invalid JSON: \(error.message)"))
        }
    }

    /// The provider entries of `document`.
    public static func providers(of document: JSONValue) -> [JSONValue] {
        if case .array(let entries)? = document["providers"] { return entries }
        return []
    }

    /// `document` with its providers array replaced by `entries` (added at the end when absent).
    public static func replacingProviders(in document: JSONValue, with entries: [JSONValue]) -> JSONValue {
        guard case .object(var members) = document else { return .object([JSONMember("providers", .array(entries))]) }
        if let index = members.firstIndex(where: { $0.key == "providers" }) {
            members[index].value = .array(entries)
        } else {
            members.insert(JSONMember("providers", .array(entries)), at: 0)
        }
        return .object(members)
    }

    /// Checks `document` and writes it in place of the file (temp file, fsync, rename).
    public func save(_ document: JSONValue) throws(ConfigError) -> Configuration {
        let text = JSONPrettyPrinter.format(document)
        let checked = try ConfigLoader(registry: registry).parse(bytes: Array(text.utf8), file: path)
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(directory.isEmpty ? "." : directory)/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        do {
            try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw ConfigError(file: path, location: "", message: localized("cannot write: \(String(cString: strerror(errno)))"))
            }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            let synced = fsync(descriptor) == 0
            close(descriptor)
            guard written == bytes.count, synced, rename(temporary, path) == 0 else {
                unlink(temporary)
                throw ConfigError(file: path, location: "", message: localized("cannot write: \(String(cString: strerror(errno)))"))
            }
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(file: path, location: "", message: localized("cannot write: \(error.localizedDescription)"))
        }
        return checked
    }

    /// A provider id not used in `taken`, derived from `base` (`example-blog`, `example-blog-2`).
    public static func uniqueID(from base: String, taken: Set<String>) -> String {
        var slug = ""
        for scalar in base.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.isEmpty { slug = "feed" }
        slug = String(slug.prefix(40))
        var candidate = slug
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(slug)-\(number)"
            number += 1
        }
        return candidate
    }
}
