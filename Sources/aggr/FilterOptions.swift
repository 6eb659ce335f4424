import Aggregator
import Foundation

/// The filter choices listing commands share: a named view, `--where`, and `--all`.
struct FilterOptions {
    var view: String?
    var `where`: String?
    var all: Bool

    /// The conditions to add to a timeline query, or a usage error naming the bad part.
    func conditions(_ configuration: Configuration?, now: Date) throws -> [FilterSQL] {
        var conditions = all ? [] : configuration.map { FilterScope.hiding($0, now: now) } ?? []
        if let view {
            let views = configuration?.views ?? []
            guard let named = views.first(where: { $0.name == view }), let filter = named.filter else {
                let names = views.map(\.name)
                let hint = NearestName.suggestion(for: view, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
                let known = names.isEmpty ? "the config defines no views" : "views: \(names.joined(separator: ", "))"
                throw CLIFailure(message: "no view \"\(view)\"\(hint); \(known)", exitCode: CLIFailure.usage)
            }
            conditions.append(FilterSQL.compile(filter, now: now))
        }
        if let text = `where` {
            do {
                conditions.append(FilterSQL.compile(try FilterParser.parse(text), now: now))
            } catch {
                throw CLIFailure(message: "--where: \(error)", exitCode: CLIFailure.usage)
            }
        }
        return conditions
    }
}
