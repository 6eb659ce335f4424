import Aggregator
import AggregatorTestSupport
import Foundation
import XCTest

final class LocalFileTests: XCTestCase {
    let directory = TemporaryDirectory()

    func testReadsAFileWholeAndRefusesOneOverTheLimitUnread() {
        let text = String(repeating: "providers ✓ 供应商\n", count: 10_000)
        let path = directory.write("providers.json", text)
        XCTAssertEqual(LocalFile.contents(of: path, limit: 1 << 20), .bytes(Array(text.utf8)))
        XCTAssertEqual(LocalFile.contents(of: path, limit: text.utf8.count), .bytes(Array(text.utf8)))
        XCTAssertEqual(LocalFile.contents(of: path, limit: text.utf8.count - 1), .tooLarge(text.utf8.count))
        XCTAssertEqual(LocalFile.contents(of: directory.write("empty.json", ""), limit: 10), .bytes([]))
    }

    func testWhatCannotBeReadSaysSo() {
        XCTAssertEqual(LocalFile.contents(of: directory.file("missing.json"), limit: 10), .missing)
        XCTAssertEqual(LocalFile.contents(of: directory.file("no-folder/providers.json"), limit: 10), .missing)
        XCTAssertEqual(LocalFile.contents(of: directory.path, limit: 10), .unreadable)
        let locked = directory.write("locked.json", "{}")
        chmod(locked, 0)
        defer { chmod(locked, 0o600) }
        // root reads any file; everyone else is refused.
        XCTAssertEqual(LocalFile.contents(of: locked, limit: 10), getuid() == 0 ? .bytes(Array("{}".utf8)) : .unreadable)
    }

    /// A pipe has no size: it is read until it ends or passes the limit, not further.
    func testAStreamIsReadNoFurtherThanPastTheLimit() throws {
        let fifo = directory.file("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
            // Up to 8 MiB, far past the limit; the reader stops early and closes, which ends the writes.
            var chunks = 0
            while chunks < 128, chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 { chunks += 1 }
            close(descriptor)
        }
        signal(SIGPIPE, SIG_IGN)
        writer.start()
        guard case .tooLarge(let count) = LocalFile.contents(of: fifo, limit: 100_000) else {
            return XCTFail("a stream past the limit was not refused")
        }
        XCTAssertGreaterThan(count, 100_000)
        XCTAssertLessThan(count, 100_000 + (1 << 16) + 1)
    }
}
