import Foundation
import Synchronization

/// Notifications still being delivered (a command running, a webhook retrying), so a
/// pass never waits for them and shutting down can.
final class DeliveryQueue: Sendable {
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])
    private let counter = Mutex(0)

    /// Starts `work` in the background.
    func start(_ work: @escaping @Sendable () async -> Void) {
        let id = counter.withLock { value in
            value += 1
            return value
        }
        // Recorded under the lock it removes itself under, so it cannot end unrecorded.
        tasks.withLock { table in
            table[id] = Task {
                await work()
                self.finished(id)
            }
        }
    }

    private func finished(_ id: Int) {
        tasks.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// How many deliveries are under way.
    var count: Int { tasks.withLock { $0.count } }

    /// Waits until every delivery has ended.
    func drain() async {
        while let task = tasks.withLock({ $0.values.first }) {
            await task.value
        }
    }

    /// Waits up to `seconds` for deliveries under way, then cancels the rest.
    func finish(within seconds: TimeInterval) async {
        let deadline = Date().addingTimeInterval(seconds)
        while count > 0, Date() < deadline {
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        tasks.withLock { table in
            for task in table.values { task.cancel() }
        }
    }
}
