/// Admits transfers under a total and a per-host limit, first come first served.
///
/// libcurl's connection limits do not bound HTTP/2 streams on one connection, so the
/// limits that protect upstream sites are enforced here, before a transfer starts.
actor ConcurrencyGate {
    private let total: Int
    private let perHost: Int
    private var running = 0
    private var runningByHost: [String: Int] = [:]
    private var waiters: [Waiter] = []
    private var nextID = 0

    private struct Waiter {
        var id: Int
        var host: String
        var continuation: CheckedContinuation<Void, Error>
    }

    init(total: Int, perHost: Int) {
        self.total = max(1, total)
        self.perHost = max(1, perHost)
    }

    private func canStart(_ host: String) -> Bool {
        running < total && runningByHost[host, default: 0] < perHost
    }

    private func start(_ host: String) {
        running += 1
        runningByHost[host, default: 0] += 1
    }

    /// Waits until a transfer to `host` may start; throws `CancellationError` if cancelled while waiting.
    func acquire(host: String) async throws {
        try Task.checkCancellation()
        if waiters.isEmpty || !waiters.contains(where: { $0.host == host }), canStart(host) {
            start(host)
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters.append(Waiter(id: id, host: host, continuation: continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    /// Ends a transfer to `host` and starts whoever may go next.
    func release(host: String) {
        running -= 1
        runningByHost[host, default: 1] -= 1
        if runningByHost[host] == 0 { runningByHost[host] = nil }
        var index = 0
        while index < waiters.count, running < total {
            if canStart(waiters[index].host) {
                let waiter = waiters.remove(at: index)
                start(waiter.host)
                waiter.continuation.resume()
            } else {
                index += 1
            }
        }
    }
}
