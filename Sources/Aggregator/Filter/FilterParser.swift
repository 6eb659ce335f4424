import Foundation

/// Parses and type-checks the filter language.
///
/// Examples:
///
///     title ~ "swift" and replies > 5
///     not (kind in [reply, event]) or tags has "release"
///     age < 2d and author != "bot"
///     published >= 2026-11-01 and title ~ /^\[ann\]/i
public enum FilterParser {
    /// The deepest nesting of `not` and parentheses accepted: deeper filters are refused
    /// with an error rather than exhausting the parser's or SQLite's stack.
    public static let maximumNesting = 32
    /// The most conditions one filter may hold.
    public static let maximumComparisons = 2_000
    /// The most values one `in [ … ]` list may hold (SQLite binds at most 32,766 values a query).
    public static let maximumListValues = 1_000

    public static func parse(_ text: String) throws(FilterError) -> FilterExpression {
        var lexer = FilterLexer(text)
        var state = State(tokens: try lexer.tokens(), source: text)
        guard state.current.kind != .end else {
            throw FilterError(
                expression: text, position: 0, message: localized("empty filter; write a condition such as title ~ \"swift\""))
        }
        let expression = try state.parseOr()
        guard state.current.kind == .end else { throw state.fail(localized("expected \"and\", \"or\" or the end of the filter")) }
        return expression
    }

    struct State {
        let tokens: [FilterToken]
        let source: String
        var index = 0
        var nesting = 0
        var comparisons = 0

        var current: FilterToken { tokens[index] }

        func fail(_ message: String, at token: FilterToken? = nil) -> FilterError {
            let found = describe(token ?? current)
            return FilterError(expression: source, position: (token ?? current).position, message: localized("\(message), found \(found)"))
        }

        func describe(_ token: FilterToken) -> String {
            switch token.kind {
            case .identifier(let name): "\"\(name)\""
            case .string(let value): localized("the string \"\(value)\"")
            case .number(let value): localized("the number \(JSONNumber(value))")
            case .duration(let span): localized("the duration \(span)")
            case .date(let date): localized("the date \(ISOTimestamp.format(date))")
            case .regex(let pattern, _): localized("the pattern /\(pattern)/")
            case .symbol(let symbol): "\"\(symbol)\""
            case .end: localized("the end of the filter")
            }
        }

        func isKeyword(_ word: String) -> Bool {
            if case .identifier(let name) = current.kind, name.lowercased() == word { return true }
            return false
        }

        mutating func parseOr() throws(FilterError) -> FilterExpression {
            var terms = [try parseAnd()]
            while isKeyword("or") {
                index += 1
                terms.append(try parseAnd())
            }
            return Self.balanced(terms[...], FilterExpression.or)
        }

        mutating func parseAnd() throws(FilterError) -> FilterExpression {
            var terms = [try parseUnary()]
            while isKeyword("and") {
                index += 1
                terms.append(try parseUnary())
            }
            return Self.balanced(terms[...], FilterExpression.and)
        }

        /// `terms` joined as a balanced tree: a chain of a thousand `or`s (a keyword
        /// blocklist) nests ten deep, not a thousand, in the expression and in its SQL.
        static func balanced(
            _ terms: ArraySlice<FilterExpression>, _ join: (FilterExpression, FilterExpression) -> FilterExpression
        ) -> FilterExpression {
            if terms.count == 1 { return terms[terms.startIndex] }
            let middle = terms.startIndex + terms.count / 2
            return join(balanced(terms[..<middle], join), balanced(terms[middle...], join))
        }

        /// Steps into a `not` or a parenthesis, refusing past ``FilterParser/maximumNesting``.
        mutating func enter() throws(FilterError) {
            nesting += 1
            if nesting > FilterParser.maximumNesting {
                throw FilterError(
                    expression: source, position: current.position,
                    message: localized("filter nested deeper than \(FilterParser.maximumNesting) levels of not and parentheses"))
            }
        }

        mutating func parseUnary() throws(FilterError) -> FilterExpression {
            if isKeyword("not") {
                try enter()
                index += 1
                let inner = try parseUnary()
                nesting -= 1
                return .not(inner)
            }
            if current.kind == .symbol("(") {
                try enter()
                index += 1
                let inner = try parseOr()
                guard current.kind == .symbol(")") else { throw fail("expected \")\"") }
                index += 1
                nesting -= 1
                return inner
            }
            comparisons += 1
            if comparisons > FilterParser.maximumComparisons {
                throw FilterError(
                    expression: source, position: current.position,
                    message:
                        localized(
                            "filter has more than \(FilterParser.maximumComparisons) conditions; join words into one pattern (title ~ \"a|b|c\")"
                        )
                )
            }
            return .comparison(try parseComparison())
        }

        mutating func parseComparison() throws(FilterError) -> FilterComparison {
            let fieldToken = current
            guard case .identifier(let name) = fieldToken.kind else {
                throw fail(localized("expected a field such as title, author or replies"))
            }
            guard let field = FilterField(rawValue: name.lowercased()) else {
                let names = FilterField.allCases.map(\.rawValue)
                let hint = NearestName.suggestion(for: name, among: names).map { localized("did you mean \"\($0)\"? ") } ?? ""
                throw FilterError(
                    expression: source, position: fieldToken.position,
                    message: localized("unknown field \"\(name)\" (\(hint)valid fields: \(names.joined(separator: ", ")))"))
            }
            index += 1
            // A bare boolean field: `unread`.
            if field.valueType == .boolean, !isOperatorToken() {
                return FilterComparison(field: field, operation: .equal, values: [.boolean(true)])
            }
            let operationToken = current
            let operation: FilterOperation
            switch operationToken.kind {
            case .symbol(let symbol):
                guard let parsed = FilterOperation(rawValue: symbol) else { throw fail("expected an operator such as =, ~ or >") }
                operation = parsed
            case .identifier(let word):
                guard let parsed = FilterOperation(rawValue: word.lowercased()), [.contains, .within, .has].contains(parsed) else {
                    throw fail("expected an operator such as =, ~, contains or in")
                }
                operation = parsed
            default:
                throw fail(localized("expected an operator after \(field.rawValue)"))
            }
            guard field.operations.contains(operation) else {
                let allowed = field.operations.map { $0.rawValue }.joined(separator: ", ")
                throw FilterError(
                    expression: source, position: operationToken.position,
                    message:
                        localized(
                            "operator \(operation.rawValue) does not apply to \(field.rawValue), which is \(field.typeDescription) (use \(allowed))"
                        )
                )
            }
            index += 1
            var values: [FilterValue] = []
            if operation == .within {
                guard current.kind == .symbol("[") else { throw fail(localized("expected \"[\" after in")) }
                index += 1
                while current.kind != .symbol("]") {
                    guard values.count < FilterParser.maximumListValues else {
                        throw fail(localized("more than \(FilterParser.maximumListValues) values in [ ]"))
                    }
                    values.append(try value(for: field, operation: operation))
                    if current.kind == .symbol(",") {
                        index += 1
                    } else if current.kind != .symbol("]") {
                        throw fail("expected \",\" or \"]\"")
                    }
                }
                index += 1
                guard !values.isEmpty else { throw fail(localized("expected at least one value in [ ]"), at: tokens[index - 1]) }
            } else {
                values.append(try value(for: field, operation: operation))
            }
            return FilterComparison(field: field, operation: operation, values: values)
        }

        func isOperatorToken() -> Bool {
            switch current.kind {
            case .symbol(let symbol): return FilterOperation(rawValue: symbol) != nil
            case .identifier(let word): return ["contains", "in", "has"].contains(word.lowercased())
            default: return false
            }
        }

        /// The next value, checked against what `field` and `operation` accept.
        mutating func value(for field: FilterField, operation: FilterOperation) throws(FilterError) -> FilterValue {
            let token = current
            index += 1
            let regexOperation = [.matches, .matchesIgnoringCase, .notMatches, .notMatchesIgnoringCase].contains(operation)
            switch (field.valueType, token.kind) {
            case (.text, .string(let text)), (.list, .string(let text)):
                if regexOperation { return try checkedRegex(text, caseInsensitive: operation.rawValue.hasSuffix("*"), at: token) }
                return .text(text)
            case (.text, .identifier(let word)) where !regexOperation, (.list, .identifier(let word)) where !regexOperation:
                return .text(word)  // bare words: kind in [release, topic]
            case (.text, .regex(let pattern, let insensitive)) where regexOperation,
                (.list, .regex(let pattern, let insensitive)) where regexOperation:
                return try checkedRegex(pattern, caseInsensitive: insensitive || operation.rawValue.hasSuffix("*"), at: token)
            case (.number, .number(let number)):
                return .number(number)
            case (.duration, .duration(let span)):
                return .duration(span)
            case (.date, .date(let date)):
                return .date(date)
            case (.date, .duration(let span)):
                return .duration(span)  // published > 2d: within the last two days
            case (.boolean, .identifier(let word)) where ["true", "false"].contains(word.lowercased()):
                return .boolean(word.lowercased() == "true")
            default:
                let expected: String
                switch field.valueType {
                case .text, .list: expected = regexOperation ? localized("a pattern in quotes or /…/") : localized("a string in quotes")
                case .number: expected = localized("a number")
                case .duration: expected = localized("a duration such as 2d or 90m")
                case .date: expected = localized("a date such as 2026-11-01")
                case .boolean: expected = localized("true or false")
                }
                throw fail(localized("\(field.rawValue) \(operation.rawValue) needs \(expected)"), at: token)
            }
        }

        func checkedRegex(_ pattern: String, caseInsensitive: Bool, at token: FilterToken) throws(FilterError) -> FilterValue {
            do {
                _ = try LinearRegex(pattern)
            } catch {
                // Features refused on purpose say so; plain syntax slips keep the short message.
                // verbatim: matches a parser message, which the catalog translates
                let detail = error.message.contains("not supported") ? ": \(error.message)" : ""
                throw FilterError(
                    expression: source, position: token.position, message: localized("invalid regular expression /\(pattern)/\(detail)"))
            }
            return .regex(pattern: pattern, caseInsensitive: caseInsensitive)
        }
    }
}
