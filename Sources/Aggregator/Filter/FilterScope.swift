import Foundation
import GRDB

/// What a config hides from every listing: the global `timeline.exclude`, and each
/// provider's `include`/`exclude` applied to its own items only.
///
/// Filters hide, never delete: a listing that shows everything (`--all`) simply goes without.
public struct HidingRules: Sendable, Equatable {
    /// Items matching this are hidden, whatever their provider.
    public var exclude: FilterExpression?
    /// Per provider id: the expression its items must match to be shown.
    public var visible: [String: FilterExpression]

    /// The rules `configuration` sets.
    public init(_ configuration: Configuration) {
        exclude = configuration.timeline.excludeFilter
        visible = [:]
        for provider in configuration.providers {
            var shown: FilterExpression? = provider.includeFilter
            if let exclude = provider.excludeFilter { shown = shown.map { .and($0, .not(exclude)) } ?? .not(exclude) }
            if let shown { visible[provider.id] = shown }
        }
    }

    /// The rules as SQL conditions over `item i`.
    func conditions(now: Date) -> [FilterSQL] {
        var conditions: [FilterSQL] = []
        if let exclude { conditions.append(FilterSQL.compile(.not(exclude), now: now)) }
        for (provider, shown) in visible.sorted(by: { $0.key < $1.key }) {
            let compiled = FilterSQL.compile(shown, now: now)
            conditions.append(
                FilterSQL(sql: "(i.provider IS NOT ? OR \(compiled.sql))", arguments: [provider.databaseValue] + compiled.arguments))
        }
        return conditions
    }
}

/// Turns the filters of a config into timeline conditions (``HidingRules`` as SQL).
enum FilterScope {
    static func hiding(_ configuration: Configuration, now: Date) -> [FilterSQL] {
        HidingRules(configuration).conditions(now: now)
    }
}
