import Aggregator
import Foundation

/// Filters compiled to PostgreSQL conditions over `item i` and the user's `item_state st`.
///
/// The same expression trees the SQLite store compiles (one language, two dialects): regexes
/// become `~` / `~*`, JSON fields `->>`, and `IS NOT` `IS DISTINCT FROM`. Only column names
/// chosen here become SQL; every value is bound.
enum PostgresFilterSQL {
    /// `expression` as a condition; `now` anchors ages; `user` owns the labels tested.
    static func compile(_ expression: FilterExpression, now: Date, user: Int64) -> SQLFragment {
        switch expression {
        case .and(let left, let right):
            let (l, r) = (compile(left, now: now, user: user), compile(right, now: now, user: user))
            return SQLFragment("(\(l.sql) AND \(r.sql))", l.values + r.values)
        case .or(let left, let right):
            let (l, r) = (compile(left, now: now, user: user), compile(right, now: now, user: user))
            return SQLFragment("(\(l.sql) OR \(r.sql))", l.values + r.values)
        case .not(let inner):
            // True when the inner condition is false or unknown: `not (replies > 5)` keeps
            // items without a reply count, as in the SQLite store.
            let compiled = compile(inner, now: now, user: user)
            return SQLFragment("((\(compiled.sql)) IS NOT TRUE)", compiled.values)
        case .comparison(let comparison):
            return compile(comparison, now: now, user: user)
        }
    }

    static func column(_ field: FilterField) -> String {
        switch field {
        case .node, .repo, .language: "(i.extra::jsonb ->> '\(field.rawValue)')"
        case .age, .published: "i.published"
        case .updated: "i.updated"
        case .unread: "(st.read_at IS NULL)"
        case .saved: "(st.saved_at IS NOT NULL)"
        default: "i.\(field.rawValue)"
        }
    }

    static func bind(_ value: FilterValue, now: Date) -> SQLValue {
        switch value {
        case .text(let text): .text(text)
        case .number(let number): Int64(exactly: number).map { .integer($0) } ?? .real(number)
        case .duration(let span): .integer(PostgresStore.millis(now.addingTimeInterval(-Double(span.seconds))))
        case .date(let date): .integer(PostgresStore.millis(date))
        case .boolean(let flag): .boolean(flag)
        case .regex(let pattern, _): .text(pattern)
        }
    }

    /// The regex operator for `value` (`~*` when it ignores case).
    static func regexOperator(_ value: FilterValue, operation: FilterOperation) -> String {
        var insensitive = operation == .matchesIgnoringCase || operation == .notMatchesIgnoringCase
        if case .regex(_, true) = value { insensitive = true }
        return insensitive ? "~*" : "~"
    }

    static func compile(_ comparison: FilterComparison, now: Date, user: Int64) -> SQLFragment {
        let field = comparison.field
        let column = column(field)
        let values = comparison.values.map { bind($0, now: now) }
        let first = values[0]
        if field == .tags || field == .labels {
            // Upstream's tags are a JSON list on the item; a user's labels are rows of item_label.
            let each =
                field == .tags
                ? "SELECT 1 FROM jsonb_array_elements_text(i.tags::jsonb) t(value) WHERE "
                : "SELECT 1 FROM item_label t WHERE t.user_id = \(user) AND t.ref = i.ref AND "
            let value = field == .tags ? "t.value" : "t.label"
            switch comparison.operation {
            case .has: return SQLFragment("EXISTS (\(each)lower(\(value)) = lower(?))", [first])
            case .contains: return SQLFragment("EXISTS (\(each)strpos(lower(\(value)), lower(?)) > 0)", [first])
            default:
                let op = regexOperator(comparison.values[0], operation: comparison.operation)
                return SQLFragment("EXISTS (\(each)\(value) \(op) ?)", [first])
            }
        }
        let operation = comparison.columnOperation
        switch operation {
        case .equal: return SQLFragment("\(column) = ?", [first])
        case .notEqual: return SQLFragment("\(column) IS DISTINCT FROM ?", [first])
        case .matches, .matchesIgnoringCase:
            return SQLFragment("coalesce(\(column), '') \(regexOperator(comparison.values[0], operation: operation)) ?", [first])
        case .notMatches, .notMatchesIgnoringCase:
            return SQLFragment("NOT (coalesce(\(column), '') \(regexOperator(comparison.values[0], operation: operation)) ?)", [first])
        case .contains: return SQLFragment("strpos(lower(coalesce(\(column), '')), lower(?)) > 0", [first])
        case .within: return SQLFragment("\(column) IN (\(SQLFragment.marks(values.count)))", values)
        case .less: return SQLFragment("\(column) < ?", [first])
        case .lessOrEqual: return SQLFragment("\(column) <= ?", [first])
        case .greater: return SQLFragment("\(column) > ?", [first])
        case .greaterOrEqual: return SQLFragment("\(column) >= ?", [first])
        case .has: return SQLFragment("FALSE")
        }
    }

    /// `rules` as conditions: the global exclude, then each provider's own rule on its items.
    static func hiding(_ rules: HidingRules, now: Date, user: Int64) -> [SQLFragment] {
        var conditions: [SQLFragment] = []
        if let exclude = rules.exclude { conditions.append(compile(.not(exclude), now: now, user: user)) }
        for (provider, shown) in rules.visible.sorted(by: { $0.key < $1.key }) {
            let compiled = compile(shown, now: now, user: user)
            conditions.append(SQLFragment("(i.provider IS DISTINCT FROM ? OR \(compiled.sql))", [.text(provider)] + compiled.values))
        }
        return conditions
    }
}
