import Foundation
import Synchronization

/// Compiles CSS selectors to XPath 1.0, which libxml2 evaluates.
///
/// Supported: type and `*`, `#id`, `.class` (whole word), `[attr]`, `[attr=v]`,
/// `[attr^=v]`, `[attr*=v]`, `[attr$=v]`, `[attr~=v]`, descendant, `>`, `+`, `~`,
/// `:first-child`, `:last-child`, `:nth-child(an+b|odd|even)`, `:not(simple)` and groups
/// with `,`. Anything else is an error naming the column.
public enum CSSSelector {
    /// The XPath for `selector`; `relative` evaluates from a context node instead of the document.
    public static func xpath(for selector: String, relative: Bool) throws(MarkupError) -> String {
        let key = Translated.Key(selector: selector, relative: relative)
        if let known = translated.withLock({ $0.known[key] }) { return known }
        var parser = Parser(text: Array(selector), source: selector)
        let xpath = try parser.parseGroups(relative: relative).joined(separator: " | ")
        translated.withLock { $0.remember(xpath, for: key) }
        return xpath
    }

    /// Selectors already translated: parsers ask for the same few selectors on every row.
    struct Translated {
        struct Key: Hashable {
            var selector: String
            var relative: Bool
        }
        /// Enough for every selector of every provider and config-defined site at once.
        static let capacity = 512
        var known: [Key: String] = [:]

        mutating func remember(_ xpath: String, for key: Key) {
            if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
            known[key] = xpath
        }
    }

    static let translated = Mutex(Translated())

    struct Parser {
        let text: [Character]
        let source: String
        var index = 0

        var current: Character? { index < text.count ? text[index] : nil }

        func fail(_ message: String, at position: Int? = nil) -> MarkupError {
            .badSelector(selector: source, position: min(position ?? index, text.count), message: message)
        }

        mutating func skipSpaces() -> Bool {
            let start = index
            while let character = current, character.isWhitespace { index += 1 }
            return index > start
        }

        mutating func parseGroups(relative: Bool) throws(MarkupError) -> [String] {
            var groups: [String] = []
            repeat {
                _ = skipSpaces()
                groups.append(try parseSelector(relative: relative))
                _ = skipSpaces()
                if current == "," {
                    index += 1
                    continue
                }
                guard current == nil else { throw fail("unexpected '\(current!)'") }
                break
            } while true
            return groups
        }

        mutating func parseSelector(relative: Bool) throws(MarkupError) -> String {
            guard current != nil, current != "," else { throw fail("expected a selector") }
            var path = (relative ? "descendant::" : "//") + (try parseCompound())
            while true {
                let spaced = skipSpaces()
                guard let character = current, character != "," else { return path }
                switch character {
                case ">":
                    index += 1
                    _ = skipSpaces()
                    path += "/" + (try parseCompound())
                case "+":
                    index += 1
                    _ = skipSpaces()
                    path += "/following-sibling::*[1]/self::" + (try parseCompound())
                case "~":
                    index += 1
                    _ = skipSpaces()
                    path += "/following-sibling::" + (try parseCompound())
                default:
                    guard spaced else { throw fail("unexpected '\(character)'") }
                    path += "/descendant::" + (try parseCompound())
                }
            }
        }

        /// A type selector (or `*`) followed by any id, class, attribute and pseudo-class parts.
        mutating func parseCompound() throws(MarkupError) -> String {
            var test = "*"
            if current == "*" {
                index += 1
            } else if let character = current, Self.isNameStart(character) {
                test = parseIdentifier()
            }
            var predicates = ""
            var sawAny = test != "*" || (index > 0 && text[index - 1] == "*")
            loop: while let character = current {
                switch character {
                case "#":
                    index += 1
                    let name = try requireIdentifier(after: "#")
                    predicates += "[@id=\(Self.literal(name))]"
                case ".":
                    index += 1
                    let name = try requireIdentifier(after: ".")
                    predicates += "[contains(concat(' ', normalize-space(@class), ' '), \(Self.literal(" \(name) ")))]"
                case "[":
                    predicates += try parseAttribute()
                case ":":
                    predicates += try parsePseudo()
                default:
                    break loop
                }
                sawAny = true
            }
            guard sawAny else {
                throw fail(current.map { "unexpected '\($0)'" } ?? "expected a selector after the combinator")
            }
            return test + predicates
        }

        mutating func parseAttribute() throws(MarkupError) -> String {
            let start = index
            index += 1
            _ = skipSpaces()
            let name = try requireIdentifier(after: "[")
            _ = skipSpaces()
            if current == "]" {
                index += 1
                return "[@\(name)]"
            }
            var operation = ""
            let operationStart = index
            while let character = current, "^*$~|=".contains(character) {
                operation.append(character)
                index += 1
            }
            guard ["=", "^=", "*=", "$=", "~="].contains(operation) else {
                throw fail(
                    operation.isEmpty ? "expected ']' or an operator such as '='" : "unsupported attribute operator '\(operation)'",
                    at: operationStart)
            }
            _ = skipSpaces()
            let value = try parseValue()
            _ = skipSpaces()
            guard current == "]" else { throw fail("unterminated attribute selector", at: start) }
            index += 1
            let attribute = "@\(name)"
            let literal = Self.literal(value)
            switch operation {
            case "=": return "[\(attribute)=\(literal)]"
            case "^=": return "[starts-with(\(attribute), \(literal))]"
            case "*=": return "[contains(\(attribute), \(literal))]"
            case "~=": return "[contains(concat(' ', normalize-space(\(attribute)), ' '), \(Self.literal(" \(value) ")))]"
            default:
                return "[substring(\(attribute), string-length(\(attribute)) - string-length(\(literal)) + 1) = \(literal)]"
            }
        }

        mutating func parseValue() throws(MarkupError) -> String {
            guard let quote = current, quote == "\"" || quote == "'" else { return try requireIdentifier(after: "=") }
            let start = index
            index += 1
            var value = ""
            while let character = current, character != quote {
                if character == "\\", index + 1 < text.count {
                    index += 1
                }
                value.append(text[index])
                index += 1
            }
            guard current == quote else { throw fail("unterminated string", at: start) }
            index += 1
            return value
        }

        mutating func parsePseudo() throws(MarkupError) -> String {
            let start = index
            index += 1
            let name = try requireIdentifier(after: ":").lowercased()
            switch name {
            case "first-child": return "[not(preceding-sibling::*)]"
            case "last-child": return "[not(following-sibling::*)]"
            case "nth-child":
                let argument = try parenthesized(name)
                return try nthChild(argument.trimmingCharacters(in: .whitespaces).lowercased(), at: start)
            case "not":
                guard current == "(" else { throw fail("expected '(' after :not") }
                index += 1
                _ = skipSpaces()
                let inner = try parseCompound()
                _ = skipSpaces()
                guard current == ")" else { throw fail("expected ')' to close :not (only one simple selector is supported)") }
                index += 1
                return "[not(self::\(inner))]"
            default:
                throw fail("unsupported pseudo-class ':\(name)'", at: start)
            }
        }

        mutating func parenthesized(_ name: String) throws(MarkupError) -> String {
            guard current == "(" else { throw fail("expected '(' after :\(name)") }
            let start = index
            index += 1
            var content = ""
            while let character = current, character != ")" {
                content.append(character)
                index += 1
            }
            guard current == ")" else { throw fail("unterminated :\(name)(", at: start) }
            index += 1
            return content
        }

        /// `an+b`, `odd`, `even` or an integer, as a predicate on the element's position.
        func nthChild(_ argument: String, at start: Int) throws(MarkupError) -> String {
            let position = "(count(preceding-sibling::*) + 1)"
            var a = 0
            var b = 0
            switch argument {
            case "odd": (a, b) = (2, 1)
            case "even": (a, b) = (2, 0)
            default:
                let compact = argument.replacingOccurrences(of: " ", with: "")
                if let number = Int(compact) {
                    return "[\(position) = \(number)]"
                }
                guard let n = compact.firstIndex(of: "n") else { throw fail("invalid :nth-child argument '\(argument)'", at: start) }
                let coefficient = String(compact[..<n])
                a = coefficient.isEmpty || coefficient == "+" ? 1 : coefficient == "-" ? -1 : (Int(coefficient) ?? .min)
                let rest = String(compact[compact.index(after: n)...])
                b = rest.isEmpty ? 0 : (Int(rest) ?? .min)
                guard a != .min, b != .min else { throw fail("invalid :nth-child argument '\(argument)'", at: start) }
            }
            if a == 0 { return "[\(position) = \(b)]" }
            if a > 0 { return "[\(position) >= \(b) and (\(position) - \(b)) mod \(a) = 0]" }
            return "[\(position) <= \(b) and (\(b) - \(position)) mod \(-a) = 0]"
        }

        mutating func requireIdentifier(after token: String) throws(MarkupError) -> String {
            guard let character = current, Self.isNameStart(character) else { throw fail("expected a name after '\(token)'") }
            return parseIdentifier()
        }

        mutating func parseIdentifier() -> String {
            var name = ""
            while let character = current, Self.isNameStart(character) || character.isNumber || character == "-" {
                name.append(character)
                index += 1
            }
            return name
        }

        static func isNameStart(_ character: Character) -> Bool {
            character.isLetter || character == "_" || character == "-" || !character.isASCII
        }

        /// An XPath string literal for `text`, with concat() when it holds both quote kinds.
        static func literal(_ text: String) -> String {
            if !text.contains("'") { return "'\(text)'" }
            if !text.contains("\"") { return "\"\(text)\"" }
            let parts = text.split(separator: "'", omittingEmptySubsequences: false).map { "'\($0)'" }
            return "concat(" + parts.joined(separator: ", \"'\", ") + ")"
        }
    }
}
