import Foundation

/// Batches made on a producer thread and taken in order by one consumer, at most `capacity`
/// waiting, so reading and preparing the next batch runs on one core while the consumer
/// writes the last one on the other.
///
/// The producer's error reaches the consumer after the batches made before it; a consumer
/// that stops early calls ``finish()``, which stops the producer at its next hand-off and
/// waits for its thread to end, so nothing runs on after the consumer returns.
package final class BatchHandOff<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    // Guarded by `condition`.
    private var waiting: [Batch] = []
    private var failure: (any Error)?
    private var stopped = false
    /// The producer's thread has ended: no batch will follow those waiting.
    private var ended = false

    /// Starts a thread calling `produce` until it returns nil, throws, or the consumer stops.
    package init(capacity: Int = 2, produce: @escaping @Sendable () throws -> Batch?) {
        self.capacity = capacity
        let thread = Thread { [self] in
            run(produce)
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func run(_ produce: @Sendable () throws -> Batch?) {
        defer {
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            let batch: Batch?
            do {
                batch = try produce()
            } catch {
                condition.lock()
                failure = error
                condition.unlock()
                return
            }
            guard let batch else { return }
            condition.lock()
            while waiting.count >= capacity && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            waiting.append(batch)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next batch in the order made; nil once the producer is done; the producer's error
    /// once every batch made before it was taken.
    package func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !ended { condition.wait() }
        if !waiting.isEmpty {
            let batch = waiting.removeFirst()
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer at its next hand-off and waits until its thread has ended.
    package func finish() {
        condition.lock()
        stopped = true
        waiting.removeAll()
        condition.broadcast()
        while !ended { condition.wait() }
        condition.unlock()
    }
}
