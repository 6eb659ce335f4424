/// A path into a JSON document: `data.list`, `result[*]`, `items[0].author.name`.
///
/// `[*]` (or a trailing array) spreads an array; `[N]` picks one element.
public struct JSONKeyPath: Sendable, Equatable, CustomStringConvertible {
    enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
        case all
    }

    let steps: [Step]
    public let description: String

    /// Parses `text`; nil when it is not a key path.
    public init?(_ text: String) {
        var steps: [Step] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                let key = rest[..<bracket]
                if !key.isEmpty { steps.append(.key(String(key))) }
                rest = rest[bracket...]
                while rest.hasPrefix("[") {
                    guard let close = rest.firstIndex(of: "]") else { return nil }
                    let inner = rest[rest.index(after: rest.startIndex)..<close]
                    if inner == "*" {
                        steps.append(.all)
                    } else if let number = Int(inner) {
                        steps.append(.index(number))
                    } else {
                        return nil
                    }
                    rest = rest[rest.index(after: close)...]
                }
                guard rest.isEmpty else { return nil }
            } else {
                guard !rest.isEmpty else { return nil }
                steps.append(.key(String(rest)))
            }
        }
        guard !steps.isEmpty || text.isEmpty else { return nil }
        self.steps = steps
        description = text
    }

    /// Every value the path reaches in `root` (several when it spreads an array).
    public func values(in root: JSONValue) -> [JSONValue] {
        var current = [root]
        for step in steps {
            current = current.flatMap { value -> [JSONValue] in
                switch (step, value) {
                case (.key(let key), .object):
                    return value[key].map { [$0] } ?? []
                case (.index(let index), .array(let elements)):
                    return elements.indices.contains(index) ? [elements[index]] : []
                case (.all, .array(let elements)):
                    return elements
                default:
                    return []
                }
            }
        }
        return current
    }

    /// The first value reached as text (numbers and booleans written out), or nil.
    public func text(in root: JSONValue) -> String? {
        for value in values(in: root) {
            switch value {
            case .string(let text): return text
            case .number(let number): return number.description
            case .bool(let flag): return String(flag)
            default: continue
            }
        }
        return nil
    }
}
