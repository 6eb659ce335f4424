import Aggregator

/// What the CLI prints after an action upstream: the outcome, what was stored, or on a dry
/// run each request that would have gone out (secrets already redacted).
public struct ActionReport {
    public init() {}

    public func render(_ result: ItemActions.Result, dryRun: Bool) -> String {
        guard dryRun else {
            var lines = ["\(result.provider): \(TerminalText.sanitize(result.message))"]
            if let streak = result.streak {
                lines.append(localized("\(streak) day in a row", plural: "\(streak) days in a row", count: streak))
            }
            for stored in result.stored where stored.item.kind == .reply {
                lines.append(localized("stored \(stored.ref) in the thread: \(TerminalText.sanitize(stored.item.title))"))
            }
            return lines.joined(separator: "\n") + "\n"
        }
        let count = result.planned.count
        var text =
            localized(
                "dry run: nothing was sent; \(count) request would be:", plural: "dry run: nothing was sent; \(count) requests would be:",
                count: count) + "\n"
        for request in result.planned {
            text += "\(request.method) \(TerminalText.sanitize(request.url))\n"
            for (name, value) in request.headers { text += "  \(TerminalText.sanitize(name)): \(TerminalText.sanitize(value))\n" }
            if let body = request.body, !body.isEmpty { text += "  \(TerminalText.sanitize(body))\n" }
        }
        return text
    }
}
