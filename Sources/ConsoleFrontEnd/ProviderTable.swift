import Aggregator
import Foundation

/// The `aggr providers` table: each configured provider with its stored items and fetch state.
public struct ProviderTable: Sendable {
    public var terminal: TerminalProfile
    public var now: Date

    public init(terminal: TerminalProfile, now: Date) {
        self.terminal = terminal
        self.now = now
    }

    /// One row per configured provider, then any provider that only the database still knows.
    public func render(
        configuration: Configuration?, counts: [String: ProviderItemCount], states: [String: ProviderState]
    ) -> String {
        var rows: [[String]] = [
            [
                localized("ID", context: "column"), localized("TYPE", context: "column"), localized("SECTIONS", context: "column"),
                localized("ITEMS", context: "column"), localized("UNREAD", context: "column"), localized("LAST FETCH", context: "column"),
                localized("STATUS", context: "column"),
            ]
        ]
        func status(_ id: String, enabled: Bool) -> String {
            guard let state = states[id] else { return enabled ? localized("never fetched") : localized("disabled") }
            var text: String
            if let error = state.lastError {
                // Count and retry time first: the message is what the column width cuts.
                var facts: [String] = []
                if state.consecutiveFailures > 1 { facts.append(localized("\(state.consecutiveFailures) in a row")) }
                if let next = state.nextAllowedFetch, next > now { facts.append(localized("retry after \(ISOTimestamp.format(next))")) }
                text =
                    localized("error", context: "status") + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))") + ": "
                    + TerminalText.sanitize(error)
            } else if state.waitReason == .rateLimit, let next = state.nextAllowedFetch, next > now {
                text = localized("ok; rate limited until \(ISOTimestamp.format(next))")
            } else {
                text = localized("ok", context: "status")
            }
            return enabled ? text : localized("disabled") + "; " + text
        }
        func lastFetch(_ id: String) -> String {
            states[id]?.lastAttempt.map { RelativeTime.long($0, now: now) } ?? "-"
        }
        let configured = configuration?.providers ?? []
        for provider in configured {
            let count = counts[provider.id]
            rows.append([
                provider.id, provider.type, provider.sections.map(\.key).joined(separator: ","),
                String(count?.total ?? 0), String(count?.unread ?? 0), lastFetch(provider.id),
                status(provider.id, enabled: provider.enabled),
            ])
        }
        let known = Set(configured.map(\.id))
        for id in counts.keys.sorted() where !known.contains(id) {
            rows.append([
                id, "-", "-", String(counts[id]!.total), String(counts[id]!.unread), lastFetch(id),
                localized("not in config (aggr prune --orphans removes)"),
            ])
        }
        return Self.align(rows, width: terminal.width)
    }

    /// Left-aligned columns separated by two spaces; the last column takes what is left.
    public static func align(_ rows: [[String]], width: Int) -> String {
        guard let columns = rows.first?.count else { return "" }
        var widths = (0..<columns).map { column in min(28, rows.map { DisplayWidth.of($0[column]) }.max() ?? 0) }
        let fixed = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        widths[columns - 1] = max(10, width - fixed)
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += DisplayWidth.pad(cell, to: widths[index]) + (index == columns - 1 ? "" : "  ")
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
