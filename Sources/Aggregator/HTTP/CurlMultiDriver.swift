internal import CCurl
import Foundation

/// Runs one libcurl multi handle on one dedicated thread, admitting transfers under a
/// total and a per-host limit.
///
/// Blocking curl calls never run on Swift's cooperative pool: submissions and
/// cancellations are queued under a lock and the thread is woken with
/// `curl_multi_wakeup`; completions resume the waiting continuations from this thread.
/// The limits are kept here too, first come first served: when a transfer ends, the next
/// one waiting starts at once on this thread, instead of after a task on the pool (busy
/// parsing what the last round fetched) gets to release a slot.
///
/// libcurl is loaded (some thirty shared libraries, see CCurl.h) and initialized on the
/// driver thread too, while the caller goes on opening the database.
final class CurlMultiDriver: @unchecked Sendable {
    // Invariant: `active`, `byHandle`, `waiting` and `runningByHost` are used only on the
    // driver thread; `multi` (set once by that thread), `queued`, `cancelled` and
    // `stopping` only while holding `lock`.
    private var multi: UnsafeMutableRawPointer?
    private let total: Int
    private let perHost: Int
    private let lock = NSLock()
    private var queued: [CurlTransfer] = []
    private var cancelled: Set<Int> = []
    private var stopping = false
    /// libcurl could not be loaded: transfers fail as they are submitted.
    private var unavailable = false
    private var active: [Int: CurlTransfer] = [:]
    private var byHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Submitted transfers a limit holds back, oldest first.
    private var waiting: [CurlTransfer] = []
    private var runningByHost: [String: Int] = [:]
    private let finished = DispatchSemaphore(value: 0)

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// A driver running at most `total` transfers at once, `perHost` of them to one host.
    ///
    /// libcurl's connection limits do not bound HTTP/2 streams on one connection, so the
    /// limits that protect upstream sites count transfers, before a transfer starts.
    init(total: Int, perHost: Int) {
        self.total = max(1, total)
        self.perHost = max(1, perHost)
        let thread = Thread { [self] in self.start() }
        thread.name = "aggr.curl"
        thread.start()
    }

    /// Queues `transfer`; its continuation is resumed when it completes or is cancelled.
    ///
    /// Once the driver is stopping, a new transfer is cancelled at once.
    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        if unavailable || stopping {
            lock.unlock()
            transfer.continuation?.resume(throwing: unavailable ? Self.unavailableError : CancellationError())
            return
        }
        // A queue that was not empty has a wake-up pending already: the thread takes the
        // whole queue when it wakes.
        if queued.isEmpty { wakeHoldingLock() }
        queued.append(transfer)
        lock.unlock()
    }

    /// Aborts transfer `id` if it is queued, waiting or running.
    func cancel(_ id: Int) {
        lock.withLock {
            cancelled.insert(id)
            wakeHoldingLock()
        }
    }

    /// Asks the thread to stop once the transfers in flight end, closing its connections
    /// and freeing the multi handle, without waiting for it.
    func stop() {
        lock.withLock {
            stopping = true
            wakeHoldingLock()
        }
    }

    /// Stops the thread (see ``stop()``) and waits until it has ended.
    func shutdown() {
        stop()
        finished.wait()
    }

    /// Interrupts the driver's poll.
    ///
    /// The caller holds `lock`, so the thread cannot free the handle meanwhile; before the
    /// thread has its handle there is no poll to interrupt, and it takes the queue when it
    /// gets there.
    private func wakeHoldingLock() {
        if let multi { curl_multi_wakeup(multi) }
    }

    /// Loads libcurl and runs the loop.
    ///
    /// Without libcurl no transfer reaches the driver (``CurlTransfer`` needs libcurl too);
    /// any that does fails with the reason.
    private func start() {
        _ = Self.globalInit
        guard let handle = curl_multi_init() else {
            let leftover = lock.withLock {
                unavailable = true
                defer { queued.removeAll() }
                return queued
            }
            for transfer in leftover { transfer.continuation?.resume(throwing: Self.unavailableError) }
            finished.signal()
            return
        }
        lock.withLock { multi = handle }
        run(handle)
    }

    private static var unavailableError: HTTPError {
        .transport(url: "", detail: aggr_curl_load_error().map { String(cString: $0) } ?? localized("libcurl could not create a handle"))
    }

    private func run(_ multi: UnsafeMutableRawPointer) {
        while true {
            lock.lock()
            let additions = queued
            queued.removeAll()
            let cancellations = cancelled
            cancelled.removeAll()
            let stop = stopping
            lock.unlock()

            for transfer in additions {
                if cancellations.contains(transfer.id) {
                    transfer.continuation?.resume(throwing: CancellationError())
                } else {
                    waiting.append(transfer)
                }
            }
            for id in cancellations {
                if let transfer = active[id] {
                    finish(transfer, .failure(CancellationError()), in: multi)
                } else if let index = waiting.firstIndex(where: { $0.id == id }) {
                    waiting.remove(at: index).continuation?.resume(throwing: CancellationError())
                }
            }
            admitWaiting(multi)
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            var ended = false
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = byHandle[handle]
                else { continue }
                finish(transfer, transfer.outcome(message.pointee.data.result), in: multi)
                ended = true
            }
            // Their slots go to the next ones now; adding a handle makes the poll below
            // return at once, so they start in the next turn.
            if ended { admitWaiting(multi) }
            if stop, active.isEmpty {
                lock.lock()
                let leftover = queued + waiting
                queued.removeAll()
                // No wake-up may reach the handle once it is freed below.
                self.multi = nil
                lock.unlock()
                waiting.removeAll()
                for transfer in leftover { transfer.continuation?.resume(throwing: CancellationError()) }
                curl_multi_cleanup(multi)
                finished.signal()
                return
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
    }

    /// Starts the waiting transfers the limits allow, in the order they came; a transfer to
    /// a host that has one waiting before it stays behind it.
    private func admitWaiting(_ multi: UnsafeMutableRawPointer) {
        guard !waiting.isEmpty, active.count < total else { return }
        var held: [CurlTransfer] = []
        var heldHosts: Set<String> = []
        for (index, transfer) in waiting.enumerated() {
            guard active.count < total else {
                held.append(contentsOf: waiting[index...])
                break
            }
            if heldHosts.contains(transfer.host) || runningByHost[transfer.host, default: 0] >= perHost {
                held.append(transfer)
                heldHosts.insert(transfer.host)
                continue
            }
            transfer.configure()
            active[transfer.id] = transfer
            byHandle[transfer.handle] = transfer
            runningByHost[transfer.host, default: 0] += 1
            curl_multi_add_handle(multi, transfer.handle)
        }
        waiting = held
    }

    private func finish(_ transfer: CurlTransfer, _ outcome: Result<HTTPResponse, Error>, in multi: UnsafeMutableRawPointer) {
        curl_multi_remove_handle(multi, transfer.handle)
        active[transfer.id] = nil
        byHandle[transfer.handle] = nil
        let left = runningByHost[transfer.host, default: 1] - 1
        runningByHost[transfer.host] = left > 0 ? left : nil
        let continuation = transfer.continuation
        transfer.continuation = nil
        continuation?.resume(with: outcome)
    }
}
