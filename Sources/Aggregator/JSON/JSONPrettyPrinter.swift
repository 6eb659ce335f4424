/// Writes JSON for people to read and edit: two-space indentation, and short objects
/// (such as one provider entry) kept on one line the way providers.json is written by hand.
public enum JSONPrettyPrinter {
    /// Objects and arrays up to this many characters stay on one line.
    static let inlineLimit = 120

    public static func format(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, to: &output)
        return output + "\n"
    }

    /// `value` on one line, spaced the way people write config: `{ "id": "x", "sections": ["a", "b"] }`.
    static func inline(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements):
            return "[" + elements.map(inline).joined(separator: ", ") + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{ "
                + members.map { member in
                    var key = ""
                    JSONWriter.appendQuoted(member.key, to: &key)
                    return key + ": " + inline(member.value)
                }.joined(separator: ", ") + " }"
        default:
            var writer = JSONWriter()
            writer.value(value)
            return writer.output
        }
    }

    static func write(_ value: JSONValue, indent: Int, to output: inout String) {
        let inline = inline(value)
        let isContainer: Bool
        switch value {
        case .array(let elements): isContainer = !elements.isEmpty
        case .object(let members): isContainer = !members.isEmpty
        default: isContainer = false
        }
        if !isContainer || (indent > 0 && inline.count + indent <= inlineLimit && !containsNestedArrayOfObjects(value)) {
            output += inline
            return
        }
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .array(let elements):
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += pad
                write(element, indent: indent + 1, to: &output)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            output += closing + "]"
        case .object(let members):
            output += "{\n"
            for (index, member) in members.enumerated() {
                var key = ""
                JSONWriter.appendQuoted(member.key, to: &key)
                output += pad + key + ": "
                write(member.value, indent: indent + 1, to: &output)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += closing + "}"
        default:
            output += inline
        }
    }

    private static func containsNestedArrayOfObjects(_ value: JSONValue) -> Bool {
        if case .array(let elements) = value { return elements.contains { if case .object = $0 { return true } else { return false } } }
        return false
    }
}
