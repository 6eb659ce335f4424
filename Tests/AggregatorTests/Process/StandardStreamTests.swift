import Aggregator
import Foundation
import XCTest

final class StandardStreamTests: XCTestCase {
    /// What a reader thread received from a pipe, whole once `finished` is signalled.
    final class Received: @unchecked Sendable {
        // Invariant: `bytes` is written by the reader thread only before it signals `finished`.
        var bytes: [UInt8] = []
        let finished = DispatchSemaphore(value: 0)
    }

    /// Text longer than a pipe holds arrives whole and in order, UTF-8 as written.
    func testWritesTextWholeThroughAPipe() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let input = ends[0]
        let text = (0..<20_000).map { "line \($0) 行 ✓\n" }.joined()
        XCTAssertGreaterThan(text.utf8.count, 1 << 16)
        let received = Received()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.bytes.append(contentsOf: buffer[0..<count])
            }
            close(input)
            received.finished.signal()
        }
        reader.start()
        StandardStream(descriptor: ends[1]).write(text)
        close(ends[1])
        XCTAssertEqual(received.finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(String(decoding: received.bytes, as: UTF8.self), text)
    }
}
