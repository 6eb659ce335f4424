import Foundation

/// `aggr import`: items in the output contract shape (NDJSON), streamed into the store.
///
/// The input is read in chunks and stored a batch at a time inside one transaction, so a
/// million items cost the memory of one batch, and a bad line anywhere stores nothing.
public struct ItemImport: Sendable {
    /// The longest line accepted; longer ones are refused, never buffered whole.
    public static let maximumLineBytes = 16 << 20
    /// Items stored per batch.
    static let batchSize = 2_048

    /// Why an import stored nothing: a line that is not a contract object, or one too long.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// What was read and what the store made of it.
    public struct Summary: Sendable {
        public var items = 0
        public var result = IngestResult()
    }

    public var store: any TimelineStorage
    public var now: Date

    public init(store: any TimelineStorage, now: Date) {
        self.store = store
        self.now = now
    }

    /// Reads NDJSON from `descriptor` to its end and stores every item, or nothing.
    public func run(from descriptor: Int32) throws -> Summary {
        let source = NDJSONBatches(descriptor: descriptor)
        var summary = Summary()
        summary.result = try store.ingestStream(now: now) { try source.next() }
        summary.items = source.items
        return summary
    }
}

/// The items of an NDJSON stream a batch at a time, for the thread that reads them.
///
/// Only one thread calls ``next()`` (the store's reading thread); ``items`` is read once
/// the stream has ended.
private final class NDJSONBatches: @unchecked Sendable {
    private var lines: LineReader
    private var number = 0
    private(set) var items = 0

    init(descriptor: Int32) {
        lines = LineReader(descriptor: descriptor, maximumLineBytes: ItemImport.maximumLineBytes)
    }

    func next() throws -> [Item]? {
        var batch: [Item] = []
        batch.reserveCapacity(ItemImport.batchSize)
        while batch.count < ItemImport.batchSize, let line = try lines.next() {
            number += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                batch.append(try ItemJSONReader.item(line: line, number: number))
            } catch {
                throw ItemImport.Failure(description: "\(error)")
            }
        }
        items += batch.count
        return batch.isEmpty ? nil : batch
    }
}

/// Splits a file descriptor's bytes into lines without holding more than one line and one
/// read buffer.
struct LineReader {
    let descriptor: Int32
    let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes (everything before it was searched).
    private var scanned = 0
    private var atEnd = false
    private var lineNumber = 0

    init(descriptor: Int32, maximumLineBytes: Int) {
        self.descriptor = descriptor
        self.maximumLineBytes = maximumLineBytes
    }

    /// The next line without its `\n`, or nil at the end of the input.
    mutating func next() throws(ItemImport.Failure) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                lineNumber += 1
                return line
            }
            // Only bytes read from now on can hold the end of this line.
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                lineNumber += 1
                return line
            }
            if buffer.count - start > maximumLineBytes {
                throw ItemImport.Failure(
                    description: localized(
                        "line \(lineNumber + 1): longer than \(maximumLineBytes >> 20) MiB; one item per line is expected"))
            }
            // Keep the partial line, drop what was handed out, and read more.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                scanned -= start
                start = 0
            }
            let chunk = 1 << 20
            let oldCount = buffer.count
            buffer.reserveCapacity(oldCount + chunk)
            var count = 0
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            buffer.withUnsafeMutableBufferPointer { pointer in
                repeat {
                    count = read(descriptor, pointer.baseAddress! + oldCount, chunk)
                } while count < 0 && errno == EINTR
            }
            buffer.removeLast(chunk - max(0, count))
            if count < 0 { throw ItemImport.Failure(description: localized("cannot be read: \(String(cString: strerror(errno)))")) }
            if count == 0 { atEnd = true }
        }
    }
}
