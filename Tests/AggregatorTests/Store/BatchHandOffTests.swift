import Foundation
import XCTest

@testable import Aggregator

/// The hand-off between the thread that reads a stream and the one that writes it: order,
/// errors after the batches made before them, and a consumer that stops early.
final class BatchHandOffTests: XCTestCase {
    struct Broken: Error, Equatable {}

    /// Counts calls across the producer thread and the test.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
        var current: Int {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    func testBatchesArriveInOrderThenNil() throws {
        let counter = Counter()
        let handOff = BatchHandOff<Int> {
            let value = counter.next()
            return value <= 100 ? value : nil
        }
        defer { handOff.finish() }
        var seen: [Int] = []
        while let batch = try handOff.next() { seen.append(batch) }
        XCTAssertEqual(seen, Array(1...100))
        XCTAssertNil(try handOff.next(), "an ended stream stays ended")
    }

    func testTheProducersErrorComesAfterItsBatches() {
        let counter = Counter()
        let handOff = BatchHandOff<Int> {
            let value = counter.next()
            if value == 4 { throw Broken() }
            return value
        }
        defer { handOff.finish() }
        var seen: [Int] = []
        XCTAssertThrowsError(
            try {
                while let batch = try handOff.next() { seen.append(batch) }
            }()
        ) { XCTAssertEqual($0 as? Broken, Broken()) }
        XCTAssertEqual(seen, [1, 2, 3])
    }

    func testAConsumerThatStopsEarlyStopsTheProducer() throws {
        let counter = Counter()
        let handOff = BatchHandOff<Int>(capacity: 2) { counter.next() }
        XCTAssertEqual(try handOff.next(), 1)
        handOff.finish()
        let stopped = counter.current
        // At most the batch taken, two waiting and one being made when it was stopped.
        XCTAssertLessThanOrEqual(stopped, 4)
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(counter.current, stopped, "nothing runs on after finish() returns")
    }
}
