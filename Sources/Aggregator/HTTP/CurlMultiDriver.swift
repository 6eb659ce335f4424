internal import CCurl
import Foundation

/// Runs one libcurl multi handle on one dedicated thread.
///
/// Blocking curl calls never run on Swift's cooperative pool: submissions and
/// cancellations are queued under a lock and the thread is woken with
/// `curl_multi_wakeup`; completions resume the waiting continuations from this thread.
final class CurlMultiDriver: @unchecked Sendable {
    // Invariant: `multi`, `active` and `byHandle` are used only on the driver thread;
    // `queued`, `cancelled` and `stopping` only while holding `lock`.
    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var queued: [CurlTransfer] = []
    private var cancelled: Set<Int> = []
    private var stopping = false
    private var active: [Int: CurlTransfer] = [:]
    private var byHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let finished = DispatchSemaphore(value: 0)

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    init() {
        _ = Self.globalInit
        multi = curl_multi_init()
        let thread = Thread { [self] in self.run() }
        thread.name = "aggr.curl"
        thread.start()
    }

    /// Queues `transfer`; its continuation is resumed when it completes or is cancelled.
    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        queued.append(transfer)
        lock.unlock()
        curl_multi_wakeup(multi)
    }

    /// Aborts transfer `id` if it is queued or running.
    func cancel(_ id: Int) {
        lock.lock()
        cancelled.insert(id)
        lock.unlock()
        curl_multi_wakeup(multi)
    }

    /// Stops the thread after the transfers in flight end, then frees the multi handle.
    func shutdown() {
        lock.lock()
        stopping = true
        lock.unlock()
        curl_multi_wakeup(multi)
        finished.wait()
    }

    private func run() {
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
                    continue
                }
                transfer.configure()
                active[transfer.id] = transfer
                byHandle[transfer.handle] = transfer
                curl_multi_add_handle(multi, transfer.handle)
            }
            for id in cancellations {
                guard let transfer = active[id] else { continue }
                finish(transfer, .failure(CancellationError()))
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = byHandle[handle]
                else { continue }
                finish(transfer, transfer.outcome(message.pointee.data.result))
            }
            if stop, active.isEmpty {
                lock.lock()
                let leftover = queued
                queued.removeAll()
                lock.unlock()
                for transfer in leftover { transfer.continuation?.resume(throwing: CancellationError()) }
                curl_multi_cleanup(multi)
                finished.signal()
                return
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
    }

    private func finish(_ transfer: CurlTransfer, _ outcome: Result<HTTPResponse, Error>) {
        curl_multi_remove_handle(multi, transfer.handle)
        active[transfer.id] = nil
        byHandle[transfer.handle] = nil
        let continuation = transfer.continuation
        transfer.continuation = nil
        continuation?.resume(with: outcome)
    }
}
