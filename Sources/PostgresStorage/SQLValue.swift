import NIOCore
import PostgresNIO

/// One value bound to a statement: what the PostgreSQL store binds, typed as PostgreSQL
/// reads it (`text`, `int8`, `float8`, `bool`, `bytea`, `int8[]`, `text[]`).
enum SQLValue: Sendable, Equatable {
    case text(String?)
    case integer(Int64?)
    case real(Double)
    case boolean(Bool)
    case bytes([UInt8]?)
    case integers([Int64])
    case texts([String])

    /// Appends the value to `bindings`; a NULL goes untyped, so PostgreSQL takes its column's type.
    func append(to bindings: inout PostgresBindings) {
        switch self {
        case .text(let value): value.map { bindings.append($0) } ?? bindings.appendNull()
        case .integer(let value): value.map { bindings.append($0) } ?? bindings.appendNull()
        case .real(let value): bindings.append(value)
        case .boolean(let value): bindings.append(value)
        case .bytes(let value): value.map { bindings.append(ByteBuffer(bytes: $0)) } ?? bindings.appendNull()
        case .integers(let values): bindings.append(values)
        case .texts(let values): bindings.append(values)
        }
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
}

/// SQL text with `?` placeholders and the values they stand for, in order.
///
/// Statements and conditions are written with `?` as in the SQLite store and numbered
/// (`$1`, `$2`…) only when run, so fragments compose without counting; a `?` inside a
/// quoted literal or identifier stays as it is. Only text written here becomes SQL: every
/// value from a user or upstream is a bound value.
struct SQLFragment: Sendable, Equatable {
    var sql: String
    var values: [SQLValue]

    init(_ sql: String, _ values: [SQLValue] = []) {
        self.sql = sql
        self.values = values
    }

    /// `sql` with its placeholders numbered from `$1`.
    var numbered: String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + values.count * 2)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                output.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                output.append(character)
            } else if character == "?" {
                number += 1
                output += "$\(number)"
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// The statement postgres-nio sends: numbered SQL and its bindings.
    var query: PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { value.append(to: &bindings) }
        return PostgresQuery(unsafeSQL: numbered, binds: bindings)
    }

    /// `count` placeholders, comma-separated, for an `IN (…)` list.
    static func marks(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }
}
