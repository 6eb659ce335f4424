internal import CCurl
import Foundation

/// Runs one libcurl multi handle on one dedicated thread, admitting transfers under a
/// total and a per-host limit.
///
/// Blocking curl calls never run on Swift's cooperative pool: submissions and
/// cancellations are queued under a lock and the thread is woken through an eventfd in
/// its epoll set; completions resume the waiting continuations from this thread. libcurl
/// acts only on the sockets epoll reports ready (`curl_multi_socket_action`, see
/// CCurl.h): `curl_multi_perform` and `curl_multi_poll` visited every transfer at every
/// turn, most of this thread's time with hundreds in flight.
/// The limits are kept here too, first come first served: when a transfer ends, the next
/// one waiting starts at once on this thread, instead of after a task on the pool (busy
/// parsing what the last round fetched) gets to release a slot.
///
/// libcurl is loaded (some thirty shared libraries, see CCurl.h) and initialized on the
/// driver thread too, while the caller goes on opening the database.
final class CurlMultiDriver: @unchecked Sendable {
    // Invariant: `active`, `byHandle`, `waiting` and `runningByHost` are used only on the
    // driver thread; `events` (set once by that thread, cleared before it is freed),
    // `queued`, `cancelled`, `stopping` and `unavailable` only while holding `lock`.
    private var events: UnsafeMutablePointer<aggr_multi_events>?
    private let total: Int
    private let perHost: Int
    private let lock = NSLock()
    private var queued: [CurlTransfer] = []
    private var cancelled: Set<Int> = []
    private var stopping = false
    /// Why transfers cannot run (libcurl could not be loaded): they fail as submitted.
    private var unavailable: HTTPError?
    private var active: [Int: CurlTransfer] = [:]
    private var byHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Submitted transfers a limit holds back, oldest first.
    private var waiting: [CurlTransfer] = []
    private var runningByHost: [String: Int] = [:]
    private let finished = DispatchSemaphore(value: 0)

    /// libcurl's global initialization, run once by whichever thread needs libcurl first
    /// (the driver thread, or a caller creating a transfer meanwhile): libcurl before 7.84
    /// does not guard it against a second thread.
    static let globalInit: Void = {
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
        if let unavailable {
            lock.unlock()
            transfer.continuation?.resume(throwing: unavailable)
            return
        }
        if stopping {
            lock.unlock()
            transfer.continuation?.resume(throwing: CancellationError())
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

    /// Interrupts the driver's wait.
    ///
    /// The caller holds `lock`, so the thread cannot close the descriptors meanwhile; before
    /// the thread has them there is no wait to interrupt, and it takes the queue when it
    /// gets there.
    private func wakeHoldingLock() {
        if let events { aggr_multi_events_wake(events) }
    }

    /// Loads libcurl and runs the loop.
    ///
    /// Without libcurl no transfer reaches the driver (``CurlTransfer`` needs libcurl too);
    /// any that does fails with the reason.
    private func start() {
        _ = Self.globalInit
        let events = UnsafeMutablePointer<aggr_multi_events>.allocate(capacity: 1)
        events.initialize(to: aggr_multi_events(epoll: -1, wake: -1, deadline: -1))
        guard let handle = curl_multi_init() else {
            events.deallocate()
            failEverything(with: Self.unavailableError)
            return
        }
        guard aggr_multi_events_attach(handle, events) == 0 else {
            let reason = String(cString: strerror(errno))
            curl_multi_cleanup(handle)
            events.deallocate()
            failEverything(with: HTTPError.transport(url: "", detail: reason))
            return
        }
        lock.withLock { self.events = events }
        run(handle, events)
        curl_multi_cleanup(handle)
        aggr_multi_events_close(events)
        events.deallocate()
        finished.signal()
    }

    private static var unavailableError: HTTPError {
        .transport(url: "", detail: aggr_curl_load_error().map { String(cString: $0) } ?? localized("libcurl could not create a handle"))
    }

    /// Fails what is queued and, from now on, every submission with `error`.
    private func failEverything(with error: HTTPError) {
        let leftover = lock.withLock {
            unavailable = error
            defer { queued.removeAll() }
            return queued
        }
        for transfer in leftover { transfer.continuation?.resume(throwing: error) }
        finished.signal()
    }

    private func run(_ multi: UnsafeMutableRawPointer, _ events: UnsafeMutablePointer<aggr_multi_events>) {
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
            if stop, active.isEmpty {
                lock.lock()
                let leftover = queued + waiting
                queued.removeAll()
                // No wake-up may reach the descriptors once they are closed.
                self.events = nil
                lock.unlock()
                waiting.removeAll()
                for transfer in leftover { transfer.continuation?.resume(throwing: CancellationError()) }
                return
            }
            // Returns at once when a transfer was just added (libcurl sets its timer to 0
            // for it) or the thread was woken; the next turn admits into freed slots.
            aggr_multi_events_drive(multi, events, 1_000)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = byHandle[handle]
                else { continue }
                finish(transfer, transfer.outcome(message.pointee.data.result), in: multi)
            }
        }
    }

    /// Starts the waiting transfers the limits allow, in the order they came; a transfer to
    /// a host that has one waiting before it stays behind it.
    ///
    /// Runs after every batch of completions with hundreds waiting, so it stops at the
    /// total limit and takes out only what it starts (it rebuilt the whole list each time,
    /// a tenth of this thread's time in reference counting at 1,000 feeds).
    private func admitWaiting(_ multi: UnsafeMutableRawPointer) {
        var heldHosts: Set<String> = []
        var index = waiting.startIndex
        while index < waiting.endIndex, active.count < total {
            let host = waiting[index].host
            if heldHosts.contains(host) || runningByHost[host, default: 0] >= perHost {
                heldHosts.insert(host)
                index += 1
                continue
            }
            let transfer = waiting.remove(at: index)
            transfer.configure()
            active[transfer.id] = transfer
            byHandle[transfer.handle] = transfer
            runningByHost[host, default: 0] += 1
            curl_multi_add_handle(multi, transfer.handle)
        }
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
