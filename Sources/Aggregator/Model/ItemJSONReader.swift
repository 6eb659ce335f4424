import Foundation

/// Reads items written in the output contract shape (one JSON object per line), so
/// `aggr export`-style output can be stored again and scripts can feed aggr.
public enum ItemJSONReader {
    /// A line that is not a contract object, with the 1-based line and the key at fault.
    public struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var key: String?
        public var message: String

        public var description: String {
            "line \(line)" + (key.map { ": \($0)" } ?? "") + ": \(message)"
        }
    }

    /// Every item of NDJSON `text`; blank lines are skipped, the first bad line throws.
    public static func items(ndjson text: String) throws(LineError) -> [Item] {
        var items: [Item] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            items.append(try item(line: ArraySlice(line.utf8), number: number))
        }
        return items
    }

    /// The item on one NDJSON line (`number` is 1-based, for errors).
    public static func item(line: ArraySlice<UInt8>, number: Int) throws(LineError) -> Item {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: Array(line))
        } catch {
            throw LineError(line: number, key: nil, message: localized("invalid JSON at column \(error.column): \(error.message)"))
        }
        do {
            return try item(from: value)
        } catch let error as FieldError {
            throw LineError(line: number, key: error.key, message: error.message)
        } catch {
            throw LineError(line: number, key: nil, message: "\(error)")
        }
    }

    struct FieldError: Error {
        var key: String?
        var message: String
    }

    /// One contract object as an item.
    public static func item(from value: JSONValue) throws -> Item {
        guard case .object = value else { throw FieldError(key: nil, message: localized("must be a JSON object")) }
        func text(_ key: String, required: Bool = true) throws -> String? {
            switch value[key] {
            case .string(let string)?: return string
            case nil, .null?:
                if required { throw FieldError(key: key, message: "missing") }
                return nil
            case let other?: throw FieldError(key: key, message: localized("must be a string, not \(other.typeName)"))
            }
        }
        func date(_ key: String, required: Bool) throws -> Date? {
            guard let string = try text(key, required: required) else { return nil }
            guard let date = ISOTimestamp.parse(string) else {
                throw FieldError(key: key, message: localized("not an ISO-8601 date: \"\(string)\""))
            }
            return date
        }
        let kindName = try text("kind")!
        guard let kind = ItemKind(rawValue: kindName) else {
            throw FieldError(
                key: "kind",
                message: localized("unknown kind \"\(kindName)\" (valid: \(ItemKind.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        let url = try text("url")!
        guard WebURL.isHTTP(url) else { throw FieldError(key: "url", message: localized("must be an http or https URL")) }
        var author: Author?
        switch value["author"] {
        case .string(let name)?: author = Author(name: name)
        case .object?:
            guard let name = value["author"]?["name"]?.stringValue else { throw FieldError(key: "author.name", message: "missing") }
            author = Author(name: name, url: value["author"]?["url"]?.stringValue)
        case nil, .null?: author = nil
        case let other?: throw FieldError(key: "author", message: localized("must be an object or null, not \(other.typeName)"))
        }
        var tags: [String] = []
        if case .array(let values)? = value["tags"] { tags = values.compactMap(\.stringValue) }
        var metrics = Metrics()
        if case .object(let members)? = value["metrics"] {
            var pairs: [(String, Int)] = []
            for member in members {
                guard let count = member.value.integerValue, count >= 0 else {
                    throw FieldError(key: "metrics.\(member.key)", message: localized("must be a whole number"))
                }
                pairs.append((member.key, count))
            }
            metrics = Metrics(named: pairs)
        }
        var extra: [String: String] = [:]
        if case .object(let members)? = value["extra"] {
            for member in members { extra[member.key] = member.value.stringValue }
        }
        let id = try text("id")!
        guard !id.isEmpty else { throw FieldError(key: "id", message: localized("must not be empty")) }
        return Item(
            provider: try text("provider")!, section: try text("section")!, id: id, kind: kind,
            title: try text("title")!, url: url, author: author, summary: try text("summary", required: false) ?? "",
            content: try text("content", required: false), published: try date("published", required: true)!,
            updated: try date("updated", required: false), tags: tags, metrics: metrics,
            image: try text("image", required: false), extra: extra)
    }
}
