import Foundation
import Synchronization

/// Notifications still being delivered (a command running, a webhook retrying), off the
/// refresh path: a pass never waits for them, and shutting down can.
///
/// Each rule delivers one digest at a time, and at most ``overallLimit`` rules deliver at
/// once. A digest that arrives while its rule is still delivering waits, and later ones
/// merge into it, so a receiver that hangs holds one slot and one waiting digest of its own
/// rule, never a refresh, another rule's delivery or an unbounded backlog.
final class DeliveryQueue: Sendable {
    /// The most rules delivering at the same moment.
    static let overallLimit = 16

    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        /// Per rule, the digest waiting for the rule's delivery under way to end.
        var waiting: [String: NotificationDigest] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())
    private let gate: ConcurrencyGate

    init(overallLimit: Int = DeliveryQueue.overallLimit) {
        gate = ConcurrencyGate(total: overallLimit, perHost: 1)
    }

    /// Delivers `digest` through `deliver` in the background, after the rule's delivery under
    /// way; merged into the rule's waiting digest when there is one.
    func start(_ digest: NotificationDigest, deliver: @escaping @Sendable (NotificationDigest) async -> Void) {
        let rule = digest.rule
        state.withLock { state in
            if let waiting = state.waiting[rule] {
                state.waiting[rule] = waiting.merged(with: digest)
                return
            }
            state.waiting[rule] = digest
            state.nextID += 1
            let id = state.nextID
            // Recorded under the lock it removes itself under, so it cannot end unrecorded.
            state.tasks[id] = Task {
                defer { self.finished(id) }
                do {
                    try await self.gate.acquire(host: rule)
                } catch {
                    return
                }
                let next = self.state.withLock { $0.waiting.removeValue(forKey: rule) }
                if let next { await deliver(next) }
                await self.gate.release(host: rule)
            }
        }
    }

    private func finished(_ id: Int) {
        state.withLock { _ = $0.tasks.removeValue(forKey: id) }
    }

    /// How many deliveries are under way or waiting.
    var count: Int { state.withLock { $0.tasks.count } }

    /// Waits until every delivery has ended.
    func drain() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }

    /// Waits up to `seconds` for deliveries under way, then cancels the rest.
    func finish(within seconds: TimeInterval) async {
        let deadline = Date().addingTimeInterval(seconds)
        while count > 0, Date() < deadline {
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        state.withLock { state in
            for task in state.tasks.values { task.cancel() }
        }
    }
}

extension NotificationDigest {
    /// This digest and a later one of the same rule as one: the newest items first, counts added.
    func merged(with later: NotificationDigest) -> NotificationDigest {
        NotificationDigest(
            rule: rule, items: Array((later.items + items).prefix(Notifier.maximumItems)), total: total + later.total)
    }
}
