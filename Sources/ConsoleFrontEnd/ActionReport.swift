import Aggregator

/// What the CLI prints after an action upstream: the outcome, what was stored, or on a dry
/// run each request that would have gone out (secrets already redacted).
public struct ActionReport {
    public init() {}

    public func render(_ result: ItemActions.Result, dryRun: Bool) -> String {
        guard dryRun else {
            var lines = ["\(result.provider): \(TerminalText.sanitize(result.message))"]
            if let streak = result.streak { lines.append("\(streak) day\(streak == 1 ? "" : "s") in a row") }
            for stored in result.stored where stored.item.kind == .reply {
                lines.append("stored \(stored.ref) in the thread: \(TerminalText.sanitize(stored.item.title))")
            }
            return lines.joined(separator: "\n") + "\n"
        }
        var text = "dry run: nothing was sent; \(result.planned.count) request\(result.planned.count == 1 ? "" : "s") would be:\n"
        for request in result.planned {
            text += "\(request.method) \(TerminalText.sanitize(request.url))\n"
            for (name, value) in request.headers { text += "  \(TerminalText.sanitize(name)): \(TerminalText.sanitize(value))\n" }
            if let body = request.body, !body.isEmpty { text += "  \(TerminalText.sanitize(body))\n" }
        }
        return text
    }
}
