import Foundation

/// Copies everything one store keeps into another, empty one: `aggr migrate --to`, from a
/// SQLite file to PostgreSQL and back.
///
/// The source is read from one snapshot on a thread of its own while the target stores
/// what arrived, two batches in flight at most, so a database of any size copies in the
/// memory of a few batches. The target is written in one transaction: a copy that fails
/// leaves it empty.
public enum StorageCopy {
    public static func copy(from source: any TimelineStorage, to target: any TimelineStorage) throws -> StorageCopyCount {
        let pipe = RecordPipe()
        let reader = Thread {
            do {
                try source.export { batch in try pipe.put(batch) }
                pipe.close(nil)
            } catch {
                pipe.close(error)
            }
        }
        reader.start()
        defer { pipe.abandon() }
        return try target.importRecords { try pipe.take() }
    }
}

/// Batches handed from the exporting thread to the importer, at most two waiting.
private final class RecordPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[StoredRecord]] = []
    private var ended = false
    private var failure: (any Error)?
    /// Set when the importer stops early: the exporter's next hand-over fails.
    private var abandoned = false

    struct Abandoned: Error {}

    func put(_ batch: [StoredRecord]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= 2 && !abandoned { condition.wait() }
        if abandoned { throw Abandoned() }
        batches.append(batch)
        condition.broadcast()
    }

    func close(_ error: (any Error)?) {
        condition.lock()
        ended = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    func take() throws -> [StoredRecord]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !ended { condition.wait() }
        if !batches.isEmpty {
            condition.broadcast()
            return batches.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the exporter and waits for it to end.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        while !ended { condition.wait() }
        condition.unlock()
    }
}
