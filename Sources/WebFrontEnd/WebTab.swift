import Aggregator
import Foundation

/// One tab of the web UI: a configured view, everything, or one provider.
enum WebTab: Equatable, Sendable {
    case all
    case view(String)
    case provider(String)

    /// Parses the `tab` query parameter: `all` (also when absent), `v:<view>`, `p:<provider>`;
    /// nil for anything else, so a mistyped link is answered instead of showing All.
    init?(parameter: String?) {
        guard let parameter, parameter != "all" else {
            self = .all
            return
        }
        if parameter.hasPrefix("v:") {
            self = .view(String(parameter.dropFirst(2)))
        } else if parameter.hasPrefix("p:") {
            self = .provider(String(parameter.dropFirst(2)))
        } else {
            return nil
        }
    }

    /// The `tab` query parameter.
    var parameter: String {
        switch self {
        case .all: "all"
        case .view(let name): "v:\(name)"
        case .provider(let id): "p:\(id)"
        }
    }

    var label: String {
        switch self {
        case .all: "All"
        case .view(let name): name
        case .provider(let id): id
        }
    }

    /// Every tab `configuration` offers, in order: views, All, providers.
    static func all(in configuration: Configuration) -> [WebTab] {
        configuration.views.map { .view($0.name) } + [.all] + configuration.providers.map { .provider($0.id) }
    }

    /// The query this tab reads (hiding rules applied), or nil for an unknown view or provider.
    func query(in configuration: Configuration, now: Date) -> TimelineQuery? {
        var query = TimelineQuery()
        query.hiding = HidingRules(configuration)
        query.now = now
        switch self {
        case .all: break
        case .view(let name):
            guard let filter = configuration.views.first(where: { $0.name == name })?.filter else { return nil }
            query.filters = [filter]
        case .provider(let id):
            guard configuration.provider(id: id) != nil else { return nil }
            query.providers = [id]
        }
        return query
    }
}
