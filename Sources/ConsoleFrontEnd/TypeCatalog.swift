import Aggregator

/// Documents registered provider types for `aggr types`, generated from their metadata.
public enum TypeCatalog {
    /// The text for every type in `registry`, or for the one named `only`.
    public static func render(_ registry: ProviderRegistry, only: String? = nil) -> String {
        let types = registry.types.map { $0.metadata }.filter { only == nil || $0.typeName == only }
        return types.map(render).joined(separator: "\n")
    }

    static func render(_ metadata: ProviderMetadata) -> String {
        var lines = ["\(metadata.typeName) — \(metadata.displayName): \(metadata.summary)"]
        switch metadata.auth {
        case .none: lines.append("  " + localized("auth: none"))
        case .optional(let variable, let note):
            lines.append("  " + localized("auth: optional token from $\(variable) (token_env); \(note)"))
        case .required(let variable, let note):
            lines.append("  " + localized("auth: token required from $\(variable) (token_env); \(note)"))
        }
        if let api = metadata.defaultAPIURL { lines.append("  api_url: \(api)") }
        if let web = metadata.defaultWebURL { lines.append("  web_url: \(web)") }
        lines.append("  interval: \(metadata.defaultInterval)")
        lines.append("  sections:")
        let width = min(32, metadata.sections.map { $0.usage.count }.max() ?? 0)
        for section in metadata.sections {
            let token = section.needsToken ? localized(" (token required)") : ""
            lines.append(
                "    \(section.usage.padding(toLength: max(width, section.usage.count), withPad: " ", startingAt: 0))  \(section.summary)\(token)"
            )
            for option in section.options {
                lines.append(
                    "      ?\(option.name)=\(option.valueType.label)  \(option.summary)\(option.defaultValue.map { localized(" (default \($0))") } ?? "")"
                )
            }
        }
        if !metadata.options.isEmpty {
            lines.append("  options:")
            for option in metadata.options {
                lines.append(
                    "    \(option.name) (\(option.valueType.label))  \(option.summary)\(option.defaultValue.map { localized(" (default \($0))") } ?? "")"
                )
            }
        }
        if !metadata.actions.isEmpty || !metadata.absentActions.isEmpty {
            lines.append("  actions:")
            for support in metadata.actions {
                let needs = support.needs == .cookie ? localized("session cookie (cookie_env)") : localized("token (token_env)")
                let kinds = support.kinds.isEmpty ? localized("the site") : support.kinds.map(\.rawValue).joined(separator: ", ")
                let undo = support.undoable ? ", --undo" : ""
                let ask = support.confirmation.map { localized("; asks first: \($0)") } ?? ""
                lines.append(
                    "    \(support.action.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  "
                        + localized("\(support.summary) — on \(kinds); needs a \(needs)\(undo)\(ask)")
                )
            }
            for action in ItemAction.allCases where metadata.absentActions[action] != nil && metadata.support(for: action) == nil {
                lines.append(
                    "    \(action.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  "
                        + localized("not offered: \(metadata.whyAbsent(action))"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
