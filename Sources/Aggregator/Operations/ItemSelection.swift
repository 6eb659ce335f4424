import Foundation

/// The filters a listing applies, resolved from what a front end was given: a view name, a
/// filter expression, and whether the config's hiding rules apply.
///
/// Every front end (the CLI's `timeline`, `search` and `export`, a web page's filter box, a
/// terminal reader's `f`) resolves its input here and gets the same errors.
public struct ItemSelection: Sendable, Equatable {
    /// Why the input does not name a selection.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No view of that name; the message suggests the nearest or lists the known ones.
        case unknownView(String)
        /// The filter expression does not parse; its error points at the column.
        case invalidFilter(FilterError)

        public var description: String {
            switch self {
            case .unknownView(let message): message
            case .invalidFilter(let error): "\(error)"
            }
        }
    }

    /// Expressions every item must match.
    public var filters: [FilterExpression] = []
    /// The config's hiding rules, unless everything is shown.
    public var hiding: HidingRules?

    public init(filters: [FilterExpression] = [], hiding: HidingRules? = nil) {
        self.filters = filters
        self.hiding = hiding
    }

    /// Resolves `view` (a name from the config's `views`) and `expression` (the filter
    /// language); with `showHidden` the config's include/exclude rules are left out.
    public init(configuration: Configuration?, view: String?, expression: String?, showHidden: Bool) throws(Failure) {
        if !showHidden, let configuration { hiding = HidingRules(configuration) }
        if let view {
            let views = configuration?.views ?? []
            guard let named = views.first(where: { $0.name == view }), let filter = named.filter else {
                let names = views.map(\.name)
                let hint = NearestName.suggestion(for: view, among: names).map { localized(" (did you mean \"\($0)\"?)") } ?? ""
                let known = names.isEmpty ? localized("the config defines no views") : "views: \(names.joined(separator: ", "))"
                throw .unknownView(localized("no view \"\(view)\"\(hint); \(known)"))
            }
            filters.append(filter)
        }
        if let expression {
            do {
                filters.append(try FilterParser.parse(expression))
            } catch {
                throw .invalidFilter(error)
            }
        }
    }

    /// `query` narrowed by this selection.
    public func applied(to query: TimelineQuery) -> TimelineQuery {
        var query = query
        query.filters += filters
        query.hiding = hiding
        return query
    }
}
