import Foundation
import GRDB

/// Turns the filters of a config into timeline conditions.
///
/// The global `timeline.exclude` hides matching items of every provider; a provider's
/// `include`/`exclude` apply to its own items only. Filters hide, never delete: `--all`
/// simply leaves these conditions out.
public enum FilterScope {
    public static func hiding(_ configuration: Configuration, now: Date) -> [FilterSQL] {
        var conditions: [FilterSQL] = []
        if let exclude = configuration.timeline.excludeFilter {
            conditions.append(FilterSQL.compile(.not(exclude), now: now))
        }
        for provider in configuration.providers where provider.includeFilter != nil || provider.excludeFilter != nil {
            var visible: FilterExpression?
            if let include = provider.includeFilter { visible = include }
            if let exclude = provider.excludeFilter { visible = visible.map { .and($0, .not(exclude)) } ?? .not(exclude) }
            guard let visible else { continue }
            let compiled = FilterSQL.compile(visible, now: now)
            conditions.append(
                FilterSQL(sql: "(i.provider IS NOT ? OR \(compiled.sql))", arguments: [provider.id.databaseValue] + compiled.arguments))
        }
        return conditions
    }
}
