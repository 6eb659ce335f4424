/// Which plural form a count takes in a language: the C expression of a catalog's
/// `Plural-Forms: nplurals=N; plural=EXPR;` header, as gettext evaluates it.
///
/// English is `n != 1` (two forms), Chinese `0` (one form), Russian and Polish need the
/// full expression language: `?:`, `||`, `&&`, comparisons, `+ - * / %`, `!` and parentheses.
public struct PluralRule: Sendable, Equatable {
    /// How many forms a message has in this language.
    public let count: Int
    private let expression: Expression

    /// English's rule: one form for 1, another for everything else.
    public static let english = PluralRule(count: 2, expression: .binary("!=", .n, .number(1)))

    /// A header that is not a plural rule gettext would accept.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { "Plural-Forms: \(reason)" }
    }

    init(count: Int, expression: Expression) {
        self.count = count
        self.expression = expression
    }

    /// Parses a `Plural-Forms` header value such as `nplurals=2; plural=(n != 1);`.
    public init(header: String) throws(SyntaxError) {
        var count: Int?
        var source: String?
        for field in header.split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].filter { !$0.isWhitespace }
            if name == "nplurals" { count = Int(parts[1].filter { !$0.isWhitespace }) }
            if name == "plural" { source = String(parts[1]) }
        }
        guard let count, (1...6).contains(count) else { throw SyntaxError(reason: "nplurals must be 1 to 6") }
        guard let source else { throw SyntaxError(reason: "no plural= expression") }
        var parser = Parser(scalars: Array(source.unicodeScalars))
        let expression = try parser.parseWhole()
        self.init(count: count, expression: expression)
    }

    /// The form `n` takes, from 0 to `count - 1` (out-of-range answers fall back to the last).
    public func form(for n: Int) -> Int {
        let value = expression.evaluate(n)
        return value >= 0 && value < count ? value : count - 1
    }

    indirect enum Expression: Sendable, Equatable {
        case n
        case number(Int)
        case not(Expression)
        case binary(String, Expression, Expression)
        case condition(Expression, Expression, Expression)

        func evaluate(_ n: Int) -> Int {
            switch self {
            case .n: return n
            case .number(let value): return value
            case .not(let operand): return operand.evaluate(n) == 0 ? 1 : 0
            case .condition(let test, let yes, let no): return test.evaluate(n) != 0 ? yes.evaluate(n) : no.evaluate(n)
            case .binary(let op, let left, let right):
                let a = left.evaluate(n)
                if op == "||" { return a != 0 ? 1 : (right.evaluate(n) != 0 ? 1 : 0) }
                if op == "&&" { return a == 0 ? 0 : (right.evaluate(n) != 0 ? 1 : 0) }
                let b = right.evaluate(n)
                switch op {
                case "==": return a == b ? 1 : 0
                case "!=": return a != b ? 1 : 0
                case "<": return a < b ? 1 : 0
                case ">": return a > b ? 1 : 0
                case "<=": return a <= b ? 1 : 0
                case ">=": return a >= b ? 1 : 0
                case "+": return a &+ b
                case "-": return a &- b
                case "*": return a &* b
                // Never a trap: n / 0 is 0, and Int.min / -1 wraps.
                case "/": return b == 0 ? 0 : a.dividedReportingOverflow(by: b).partialValue
                default: return b == 0 ? 0 : a.remainderReportingOverflow(dividingBy: b).partialValue
                }
            }
        }
    }

    /// Precedence climbing over C's operators, the ones gettext's grammar has.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        var depth = 0

        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"]]

        mutating func parseWhole() throws(SyntaxError) -> Expression {
            let expression = try parseCondition()
            skipSpace()
            guard index == scalars.count else { throw SyntaxError(reason: "unexpected \"\(rest)\" at \(index + 1)") }
            return expression
        }

        var rest: String { String(String.UnicodeScalarView(scalars[index...].prefix(10))) }

        mutating func skipSpace() {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        }

        mutating func parseCondition() throws(SyntaxError) -> Expression {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64 else { throw SyntaxError(reason: "nested too deeply") }
            let test = try parseBinary(level: 0)
            skipSpace()
            guard take("?") else { return test }
            let yes = try parseCondition()
            skipSpace()
            guard take(":") else { throw SyntaxError(reason: "a ? without its : at \(index + 1)") }
            let no = try parseCondition()
            return .condition(test, yes, no)
        }

        mutating func parseBinary(level: Int) throws(SyntaxError) -> Expression {
            guard level < Self.levels.count else { return try parseUnary() }
            var left = try parseBinary(level: level + 1)
            while true {
                skipSpace()
                guard let op = Self.levels[level].first(where: { matches($0) }) else { return left }
                index += op.unicodeScalars.count
                left = .binary(op, left, try parseBinary(level: level + 1))
            }
        }

        mutating func parseUnary() throws(SyntaxError) -> Expression {
            skipSpace()
            if matches("!"), !matches("!=") {
                index += 1
                depth += 1
                defer { depth -= 1 }
                guard depth < 64 else { throw SyntaxError(reason: "nested too deeply") }
                return .not(try parseUnary())
            }
            if take("(") {
                let inner = try parseCondition()
                skipSpace()
                guard take(")") else { throw SyntaxError(reason: "a ( without its ) at \(index + 1)") }
                return inner
            }
            if take("n") { return .n }
            var digits = ""
            while index < scalars.count, ("0"..."9").contains(scalars[index]), digits.count < 9 {
                digits.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard let value = Int(digits) else {
                throw SyntaxError(reason: index < scalars.count ? "unexpected \"\(rest)\" at \(index + 1)" : "the expression ends early")
            }
            return .number(value)
        }

        func matches(_ token: String) -> Bool {
            var position = index
            for scalar in token.unicodeScalars {
                guard position < scalars.count, scalars[position] == scalar else { return false }
                position += 1
            }
            return true
        }

        mutating func take(_ token: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == token else { return false }
            index += 1
            return true
        }
    }
}
