import Foundation

/// The refresh's writes, stored by a thread of its own, several to a transaction.
///
/// Each section's task hands its items over and awaits the result instead of holding one
/// of the few cooperative threads while it waits for the database: the others go on
/// parsing, and the writes that pile up meanwhile share one commit (one log write instead
/// of one per section). A write that fails alone fails alone (``Store`` gives each its
/// own savepoint); a commit that fails fails every write it carried.
final class WriteQueue: @unchecked Sendable {
    private let store: any TimelineStorage
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [(write: QueuedWrite, done: CheckedContinuation<IngestResult, any Error>)] = []
    private var finished = false
    private var threadEnded = false
    /// The most writes one transaction carries.
    ///
    /// When the writer falls behind (10,000 feeds: it is the bottleneck), larger commits
    /// rewrite each index page fewer times: 256 took that refresh from 28.1–28.4 s to
    /// 25.3–25.6 s beside 64 (both measured under the same other load).
    static let groupLimit = 256

    init(store: any TimelineStorage) {
        self.store = store
        let thread = Thread { [self] in run() }
        thread.start()
    }

    /// Stores `write` with whatever else is waiting; its result once committed.
    func store(_ write: QueuedWrite) async throws -> IngestResult {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            if finished {
                condition.unlock()
                continuation.resume(with: store.write([write])[0])
                return
            }
            pending.append((write, continuation))
            condition.signal()
            condition.unlock()
        }
    }

    /// Stores what is still waiting and ends the thread; later writes are stored directly.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        while !threadEnded { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && !finished { condition.wait() }
            if pending.isEmpty && finished {
                threadEnded = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let group = Array(pending.prefix(Self.groupLimit))
            pending.removeFirst(group.count)
            condition.unlock()
            let results = store.write(group.map(\.write))
            for (entry, result) in zip(group, results) { entry.done.resume(with: result) }
        }
    }
}
