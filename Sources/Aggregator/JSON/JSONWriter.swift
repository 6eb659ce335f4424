/// Writes compact JSON text in a caller-chosen key order.
///
/// Output objects follow a fixed contract, and Foundation's encoders do not promise key
/// order; this writer does, and it escapes every control character (C0, DEL and C1) so
/// JSON printed to a terminal cannot carry escape sequences.
public struct JSONWriter {
    public private(set) var output = ""
    /// One flag per open container: whether the next element needs a comma before it.
    private var needsComma: [Bool] = []
    /// Set between a member name and its value, which takes no comma.
    private var afterKey = false

    public init() {}

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = needsComma.last else { return }
        if last { output.append(",") }
        needsComma[needsComma.count - 1] = true
    }

    public mutating func beginObject() {
        separate()
        output.append("{")
        needsComma.append(false)
    }

    public mutating func endObject() {
        needsComma.removeLast()
        output.append("}")
    }

    public mutating func beginArray() {
        separate()
        output.append("[")
        needsComma.append(false)
    }

    public mutating func endArray() {
        needsComma.removeLast()
        output.append("]")
    }

    /// Writes a member name; the next value written is its value.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &output)
        output.append(":")
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &output)
    }

    public mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func integer(_ value: Int) {
        separate()
        output.append(String(value))
    }

    public mutating func bool(_ value: Bool) {
        separate()
        output.append(value ? "true" : "false")
    }

    public mutating func null() {
        separate()
        output.append("null")
    }

    /// Writes any parsed value, objects in their stored order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number):
            separate()
            output.append(number.description)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    /// Appends `text` as a JSON string literal.
    public static func appendQuoted(_ text: String, to output: inout String) {
        output.append("\"")
        // Printable ASCII without quotes or backslashes, the usual case, goes in whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            output.append(text)
            output.append("\"")
            return
        }
        var plainStart = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        var position = scalars.startIndex
        while position != scalars.endIndex {
            let scalar = scalars[position]
            let escaped: String?
            switch scalar.value {
            case 0x22: escaped = "\\\""
            case 0x5C: escaped = "\\\\"
            case 0x0A: escaped = "\\n"
            case 0x0D: escaped = "\\r"
            case 0x09: escaped = "\\t"
            case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16)
                escaped = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped = nil
            }
            if let escaped {
                output.append(contentsOf: Substring(scalars[plainStart..<position]))
                output.append(escaped)
                plainStart = scalars.index(after: position)
            }
            position = scalars.index(after: position)
        }
        output.append(contentsOf: Substring(scalars[plainStart..<scalars.endIndex]))
        output.append("\"")
    }
}
