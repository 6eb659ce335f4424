import Foundation

/// A checked filter: fields known, operators fitting their types, values of the right kind.
public indirect enum FilterExpression: Sendable, Equatable {
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)
    case comparison(FilterComparison)
}

/// `field operator value`.
public struct FilterComparison: Sendable, Equatable {
    public var field: FilterField
    public var operation: FilterOperation
    public var values: [FilterValue]

    public init(field: FilterField, operation: FilterOperation, values: [FilterValue]) {
        self.field = field
        self.operation = operation
        self.values = values
    }
}

/// The operators of the filter language.
public enum FilterOperation: String, Sendable, Equatable {
    case equal = "=", notEqual = "!=", matches = "~", matchesIgnoringCase = "~*", notMatches = "!~", notMatchesIgnoringCase = "!~*"
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case contains, within = "in", has
}

/// A literal in a filter.
public enum FilterValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case duration(TimeSpan)
    case date(Date)
    case boolean(Bool)
    case regex(pattern: String, caseInsensitive: Bool)
}

/// The fields a filter can test, each with its type.
public enum FilterField: String, Sendable, CaseIterable {
    case title, author, summary, content, url, provider, section, kind, tags, labels, node, repo, language
    case replies, comments, stars, forks, likes, views, age, published, updated, unread, saved

    public enum ValueType: Sendable { case text, list, number, duration, date, boolean }

    public var valueType: ValueType {
        switch self {
        case .title, .author, .summary, .content, .url, .provider, .section, .kind, .node, .repo, .language: .text
        case .tags, .labels: .list
        case .replies, .comments, .stars, .forks, .likes, .views: .number
        case .age: .duration
        case .published, .updated: .date
        case .unread, .saved: .boolean
        }
    }

    /// The operators this field accepts, as shown in errors.
    var operations: [FilterOperation] {
        switch valueType {
        case .text: [.equal, .notEqual, .matches, .matchesIgnoringCase, .notMatches, .notMatchesIgnoringCase, .contains, .within]
        case .list: [.has, .contains, .matches, .matchesIgnoringCase]
        case .number: [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .within]
        case .duration, .date: [.less, .lessOrEqual, .greater, .greaterOrEqual]
        case .boolean: [.equal, .notEqual]
        }
    }

    var typeDescription: String {
        switch valueType {
        case .text: "text"
        case .list: localized("a list")
        case .number: localized("a number")
        case .duration: localized("a duration")
        case .date: localized("a date")
        case .boolean: localized("true or false")
        }
    }
}

extension FilterComparison {
    /// The operation as it applies to the stored column: an age compares the other way round
    /// (age < 2d means published after now − 2d), every other field as written. (A date
    /// against a duration, `published > 2d`, already means after now − 2d.)
    package var columnOperation: FilterOperation {
        guard field == .age else { return operation }
        switch operation {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return operation
        }
    }
}
