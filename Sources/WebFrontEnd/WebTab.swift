import Aggregator
import Foundation

/// The web UI's name for a tab in links: the `tab` query parameter.
extension TimelineTab {
    /// Parses the `tab` query parameter: `all` (also when absent), `v:<view>`, `p:<provider>`;
    /// nil for anything else, so a mistyped link is answered instead of showing All.
    init?(webParameter parameter: String?) {
        guard let parameter, parameter != "all" else {
            self = .all
            return
        }
        if parameter.hasPrefix("v:") {
            self = .view(String(parameter.dropFirst(2)))
        } else if parameter.hasPrefix("p:") {
            self = .provider(String(parameter.dropFirst(2)))
        } else if parameter.hasPrefix("l:") {
            self = .labelled(String(parameter.dropFirst(2)))
        } else {
            return nil
        }
    }

    /// The `tab` query parameter (the web offers views, All and providers).
    var webParameter: String {
        switch self {
        case .view(let name): "v:\(name)"
        case .provider(let id): "p:\(id)"
        case .labelled(let name): "l:\(name)"
        default: "all"
        }
    }
}
