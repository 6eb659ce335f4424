import Foundation
import Synchronization

/// Counts the server's open connections against ``ServeLimits/maximumConnections`` and,
/// once a crowd of them has closed, hands the memory they held back to the system.
///
/// glibc keeps freed memory in its arenas: after 20,000 connections closed the process
/// stayed at its peak RSS. `malloc_trim` returns it; it runs off the event loops, after the
/// count falls to an eighth of a peak of at least ``trimPeak``.
final class ConnectionCounter: Sendable {
    /// The smallest peak worth trimming after.
    static let trimPeak = 256

    private struct State {
        var open = 0
        var peak = 0
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection; false (and not counted) when the server is full.
    func admit() -> Bool {
        state.withLock { state in
            guard state.open < limit else { return false }
            state.open += 1
            state.peak = max(state.peak, state.open)
            return true
        }
    }

    /// Counts a connection's end.
    func release() {
        let trim = state.withLock { state -> Bool in
            state.open -= 1
            guard state.peak >= Self.trimPeak, state.open <= state.peak / 8 else { return false }
            state.peak = state.open
            return true
        }
        if trim { DispatchQueue.global(qos: .utility).async { Self.returnFreedMemory() } }
    }

    /// Connections open now.
    var open: Int { state.withLock { $0.open } }

    /// glibc's `malloc_trim(0)`, looked up at run time (no Swift module declares it).
    static func returnFreedMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
