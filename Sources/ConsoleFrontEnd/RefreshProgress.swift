import Aggregator
import Foundation

/// Shows a refresh as it runs: on a TTY one live status line per provider (spinner,
/// new/updated counts, errors), otherwise one plain log line per finished section.
public final class RefreshProgress: @unchecked Sendable {
    // Invariant: `rows`, `order`, `drawnLines` and `frame` are only touched while holding `lock`.
    private let lock = NSLock()
    private let live: Bool
    private let color: Bool
    private let width: Int
    private let write: @Sendable (String) -> Void
    private var rows: [String: Row] = [:]
    private var order: [String] = []
    private var drawnLines = 0
    private var frame = 0
    private static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private struct Row {
        var sections: Int
        var finishedSections = 0
        var result = IngestResult()
        var unchanged = 0
        var errors: [String] = []
        var done = false
        var note: String?
    }

    /// A view writing through `write`; `live` redraws lines in place (a TTY).
    public init(live: Bool, color: Bool, width: Int, write: @escaping @Sendable (String) -> Void) {
        self.live = live
        self.color = color
        self.width = width
        self.write = write
    }

    /// Takes one event from the refresher.
    public func handle(_ event: RefreshEvent) {
        lock.withLock {
            switch event {
            case .skipped(let provider, let reason):
                order.append(provider)
                rows[provider] = Row(sections: 0, done: true, note: localized("skipped: \(reason)"))
                if !live { write("\(provider): " + localized("skipped: \(reason)") + "\n") }
            case .started(let provider, let sections):
                order.append(provider)
                rows[provider] = Row(sections: sections.count)
            case .sectionFinished(let provider, let section, let outcome):
                rows[provider]?.finishedSections += 1
                switch outcome {
                case .stored(let result):
                    if let previous = rows[provider]?.result { rows[provider]?.result = previous + result }
                case .unchanged: rows[provider]?.unchanged += 1
                case .failed(let message): rows[provider]?.errors.append("\(section): \(message)")
                }
                if !live { write("\(provider) \(section): \(Self.describe(outcome))\n") }
            case .finished(let outcome):
                rows[outcome.provider]?.done = true
                if outcome.failed, let next = outcome.nextAllowedFetch {
                    rows[outcome.provider]?.note = localized("next try after \(ISOTimestamp.format(next))")
                }
            }
            if live { redraw() }
        }
    }

    /// Advances the spinner; call every ~100 ms while the refresh runs.
    public func tick() {
        lock.withLock {
            frame += 1
            if live { redraw() }
        }
    }

    /// Leaves the final state on screen.
    public func finish() {
        lock.withLock { if live { redraw() } }
    }

    static func describe(_ outcome: SectionOutcome) -> String {
        switch outcome {
        case .stored(let result):
            var text = localized("\(result.new) new, \(result.updated) updated, \(result.unchanged) unchanged")
            if result.tombstoned > 0 { text += localized(", \(result.tombstoned) previously removed") }
            return text
        case .unchanged: return localized("not modified")
        case .failed(let message): return localized("failed: \(message)")
        }
    }

    private func redraw() {
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for provider in order {
            guard let row = rows[provider] else { continue }
            let status: String
            let mark: String
            if row.note?.hasPrefix("skipped") == true {
                mark = TextStyle.dim.apply("-", enabled: color)
                status = row.note ?? ""
            } else if !row.done {
                mark = TextStyle.cyan.apply(Self.spinner[frame % Self.spinner.count], enabled: color)
                status = localized("\(row.finishedSections)/\(row.sections) sections, \(row.result.new) new, \(row.result.updated) updated")
            } else if row.errors.isEmpty {
                mark = TextStyle.green.apply("✓", enabled: color)
                status =
                    localized("\(row.result.new) new, \(row.result.updated) updated, \(row.result.unchanged) unchanged")
                    + (row.unchanged > 0 ? localized(", \(row.unchanged) not modified") : "")
            } else {
                mark = TextStyle.red.apply("✗", enabled: color)
                status = row.errors.joined(separator: "; ") + (row.note.map { " (\($0))" } ?? "")
            }
            let line = DisplayWidth.truncate("\(provider)  \(TerminalText.sanitize(status))", to: max(10, width - 3))
            text += "\u{1B}[2K\(mark) \(line)\n"
        }
        drawnLines = order.count
        write(text)
    }
}
