import Foundation
internal import GRDB

/// A filter compiled to an SQL condition over the `item` table aliased `i`.
///
/// Only column names chosen here become SQL text; every value from the filter is a bound
/// argument, so `title = "x' OR 1=1 --"` matches that literal title and nothing else. It
/// never leaves the library: front ends hand the Store filter expressions, and the Store
/// compiles them.
struct FilterSQL: Sendable, Equatable {
    var sql: String
    var arguments: [DatabaseValue]

    init(sql: String, arguments: [DatabaseValue]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Compiles `expression`; `now` anchors ages (`age < 2d`).
    static func compile(_ expression: FilterExpression, now: Date) -> FilterSQL {
        switch expression {
        case .and(let left, let right):
            let (l, r) = (compile(left, now: now), compile(right, now: now))
            return FilterSQL(sql: "(\(l.sql) AND \(r.sql))", arguments: l.arguments + r.arguments)
        case .or(let left, let right):
            let (l, r) = (compile(left, now: now), compile(right, now: now))
            return FilterSQL(sql: "(\(l.sql) OR \(r.sql))", arguments: l.arguments + r.arguments)
        case .not(let inner):
            let compiled = compile(inner, now: now)
            // True when the inner condition is false or unknown (NULL): `not (replies > 5)`
            // keeps items without a reply count. `IS NOT 1` says it without a function call,
            // which keeps each level of nesting shallow for SQLite's parser.
            return FilterSQL(sql: "(\(compiled.sql) IS NOT 1)", arguments: compiled.arguments)
        case .comparison(let comparison):
            return compile(comparison, now: now)
        }
    }

    static func column(_ field: FilterField) -> String {
        switch field {
        case .node, .repo, .language: "json_extract(i.extra, '$.\(field.rawValue)')"
        case .age, .published: "i.published"
        case .updated: "i.updated"
        case .unread: "(i.read_at IS NULL)"
        case .saved: "(i.saved_at IS NOT NULL)"
        default: "i.\(field.rawValue)"
        }
    }

    static func bind(_ value: FilterValue, now: Date) -> DatabaseValue {
        switch value {
        case .text(let text): text.databaseValue
        // Whole numbers bind as integers (exact comparison with integer columns); a number too
        // large for one (1e30) binds as a real, which SQLite compares just as well.
        case .number(let number): Int64(exactly: number)?.databaseValue ?? number.databaseValue
        case .duration(let span): Store.millis(now.addingTimeInterval(-Double(span.seconds))).databaseValue
        case .date(let date): Store.millis(date).databaseValue
        case .boolean(let flag): (flag ? 1 : 0).databaseValue
        case .regex(let pattern, let insensitive): ((insensitive ? "(?i)" : "") + pattern).databaseValue
        }
    }

    static func compile(_ comparison: FilterComparison, now: Date) -> FilterSQL {
        let field = comparison.field
        let column = column(field)
        let values = comparison.values.map { bind($0, now: now) }
        let first = values[0]
        if field == .tags || field == .labels {
            // Upstream's tags are a JSON list on the item; a user's labels are rows of item_label.
            let each =
                field == .tags
                ? "SELECT 1 FROM json_each(i.tags) t WHERE "
                : "SELECT 1 FROM (SELECT label AS value FROM item_label WHERE ref = i.ref) t WHERE "
            switch comparison.operation {
            case .has: return FilterSQL(sql: "EXISTS (\(each)lower(t.value) = lower(?))", arguments: [first])
            case .contains: return FilterSQL(sql: "EXISTS (\(each)instr(lower(t.value), lower(?)) > 0)", arguments: [first])
            default: return FilterSQL(sql: "EXISTS (\(each)regexp(?, t.value))", arguments: [first])
            }
        }
        switch comparison.columnOperation {
        case .equal: return FilterSQL(sql: "\(column) = ?", arguments: [first])
        case .notEqual: return FilterSQL(sql: "\(column) IS NOT ?", arguments: [first])
        case .matches, .matchesIgnoringCase: return FilterSQL(sql: "regexp(?, coalesce(\(column), ''))", arguments: [first])
        case .notMatches, .notMatchesIgnoringCase: return FilterSQL(sql: "NOT regexp(?, coalesce(\(column), ''))", arguments: [first])
        case .contains: return FilterSQL(sql: "instr(lower(coalesce(\(column), '')), lower(?)) > 0", arguments: [first])
        case .within:
            return FilterSQL(sql: "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))", arguments: values)
        case .less: return FilterSQL(sql: "\(column) < ?", arguments: [first])
        case .lessOrEqual: return FilterSQL(sql: "\(column) <= ?", arguments: [first])
        case .greater: return FilterSQL(sql: "\(column) > ?", arguments: [first])
        case .greaterOrEqual: return FilterSQL(sql: "\(column) >= ?", arguments: [first])
        case .has: return FilterSQL(sql: "0", arguments: [])
        }
    }
}

extension FilterSQL {
    /// `rules` as conditions over `item i`: the global exclude, then each provider's own
    /// rule applied to its items only.
    static func hiding(_ rules: HidingRules, now: Date) -> [FilterSQL] {
        var conditions: [FilterSQL] = []
        if let exclude = rules.exclude { conditions.append(compile(.not(exclude), now: now)) }
        for (provider, shown) in rules.visible.sorted(by: { $0.key < $1.key }) {
            let compiled = compile(shown, now: now)
            conditions.append(
                FilterSQL(sql: "(i.provider IS NOT ? OR \(compiled.sql))", arguments: [provider.databaseValue] + compiled.arguments))
        }
        return conditions
    }

    /// Every filter of `query` (its hiding rules, then its expressions) as SQL.
    static func conditions(of query: TimelineQuery) -> [FilterSQL] {
        (query.hiding.map { hiding($0, now: query.now) } ?? []) + query.filters.map { compile($0, now: query.now) }
    }
}
