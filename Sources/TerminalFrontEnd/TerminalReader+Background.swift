import Aggregator
import Foundation
import Synchronization

/// Work the reader runs off its loop (refreshes, thread and image fetches), shared through locks.
extension TerminalReader {
    /// A background refresh's progress, written by its task and read by the loop.
    final class SharedRefreshState: Sendable {
        private let state = Mutex(RefreshState())

        func withLock<Result>(_ body: (inout RefreshState) -> Result) -> Result {
            state.withLock { body(&$0) }
        }
    }

    /// A thread being fetched on demand: the topic, then the replies or the error.
    final class SharedThreadFetch: Sendable {
        private let state = Mutex<(topic: Int64, result: Result<[StoredItem], ThreadFetchError>?)?>(nil)

        func start(_ topic: Int64) { state.withLock { $0 = (topic, nil) } }

        func finish(_ topic: Int64, _ result: Result<[StoredItem], ThreadFetchError>) {
            state.withLock { if $0?.topic == topic { $0 = (topic, result) } }
        }

        /// The finished fetch, taken (nil while one is running or none is).
        func take() -> (topic: Int64, result: Result<[StoredItem], ThreadFetchError>)? {
            state.withLock { current in
                guard let found = current, let result = found.result else { return nil }
                current = nil
                return (found.topic, result)
            }
        }

        var running: Bool { state.withLock { $0 != nil && $0?.result == nil } }
    }

    /// The newest image fetched for an item page: its escape sequence and cells, or why not.
    final class SharedImageFetch: Sendable {
        private let state = Mutex<(ref: Int64, result: Result<ImageCells, ImageError>?)?>(nil)

        func start(_ ref: Int64) { state.withLock { $0 = (ref, nil) } }

        func finish(_ ref: Int64, _ result: Result<ImageCells, ImageError>) {
            state.withLock { if $0?.ref == ref { $0 = (ref, result) } }
        }

        /// The finished fetch for `ref`, if any.
        func result(for ref: Int64) -> Result<ImageCells, ImageError>? {
            state.withLock { $0?.ref == ref ? $0?.result : nil }
        }

        var running: Bool { state.withLock { $0 != nil && $0?.result == nil } }
    }

    /// An image ready to draw: the sequence and the cells it covers.
    struct ImageCells: Sendable {
        var sequence: String
        var columns: Int
        var rows: Int
    }

    /// What a background refresh has done so far.
    struct RefreshState {
        var running = false
        var finishedProviders = 0
        var providers = 0
        var newItems = 0
        var summary: String?
    }
}
