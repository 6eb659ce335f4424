import Aggregator
import Foundation

/// Shows what `aggr watch` does: on a TTY, live refresh rows during a pass and one status
/// line between passes (rewritten in place, never on a timer); otherwise a timestamped log
/// line per fetched section, pass, notification and config reload, as a journal wants.
public final class WatchLog: @unchecked Sendable {
    // Invariant: `progress`, `ticker` and `statusShown` are only touched while holding `lock`.
    private let lock = NSLock()
    private let live: Bool
    private let color: Bool
    private let width: Int
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Date
    private var progress: RefreshProgress?
    private var ticker: Task<Void, Never>?
    private var statusShown = false

    /// A log writing through `write`; `live` draws for a terminal.
    public init(
        live: Bool, color: Bool, width: Int, clock: @escaping @Sendable () -> Date = { Date() },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.live = live
        self.color = color
        self.width = width
        self.clock = clock
        self.write = write
    }

    /// Writes one line (a terminal's status line is cleared first).
    public func line(_ text: String) {
        lock.withLock { emit(text) }
    }

    private func emit(_ text: String) {
        let clean = TerminalText.sanitize(text)
        if live {
            if statusShown { write("\r\u{1B}[2K") }
            statusShown = false
            write(clean + "\n")
        } else {
            write("\(ISOTimestamp.format(clock())) \(clean)\n")
        }
    }

    /// Takes one event from the watcher.
    public func handle(_ event: WatchEvent) {
        lock.withLock {
            switch event {
            case .configReloaded(let configuration): emit(localized("\(configuration.file) changed: reloaded"))
            case .configRejected(let message): emit(message)
            case .passStarted:
                if statusShown { write("\r\u{1B}[2K") }
                statusShown = false
                let write = write
                let prefix: @Sendable (String) -> String = { [clock] text in
                    text.split(separator: "\n").map { "\(ISOTimestamp.format(clock())) \($0)\n" }.joined()
                }
                let live = live
                progress = RefreshProgress(live: live, color: color, width: width) { text in write(live ? text : prefix(text)) }
                if live {
                    let progress = progress
                    ticker = Task {
                        while !Task.isCancelled {
                            try? await Task.sleep(nanoseconds: 100_000_000)
                            progress?.tick()
                        }
                    }
                }
            case .passFinished(let summary):
                ticker?.cancel()
                ticker = nil
                progress?.finish()
                progress = nil
                emit(summary.line)
            case .matched(let rule, let count):
                emit(localized("notify \(rule): \(count) new item", plural: "notify \(rule): \(count) new items", count: count))
            case .delivered(let delivery): emit(delivery.line)
            case .checkedIn(let provider, let message, let streak):
                emit(
                    localized("check-in \(provider): \(message)")
                        + (streak.map { " (" + localized("\($0) day in a row", plural: "\($0) days in a row", count: $0) + ")" } ?? ""))
            case .problem(let message): emit(localized("problem: \(message)"))
            case .waiting(let until, let provider):
                let text: String
                if let until, let provider {
                    let when = live ? Self.clockTime(until) : ISOTimestamp.format(until)
                    text = localized("next: \(provider) at \(when)")
                } else {
                    text = localized("no enabled provider: waiting for providers.json to change")
                }
                if live {
                    if statusShown { write("\r\u{1B}[2K") }
                    write(TextStyle.dim.apply(localized("watching · \(text) · Ctrl-C stops"), enabled: color))
                    statusShown = true
                } else {
                    emit(text)
                }
            }
        }
    }

    /// Takes one event from a pass's refresh.
    public func handle(_ event: RefreshEvent) {
        let progress = lock.withLock { self.progress }
        progress?.handle(event)
    }

    /// Ends the status line before the process exits.
    public func close() {
        lock.withLock {
            ticker?.cancel()
            if statusShown { write("\r\u{1B}[2K") }
            statusShown = false
        }
    }

    /// `14:05:09` in local time.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        // verbatim: a date format
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
