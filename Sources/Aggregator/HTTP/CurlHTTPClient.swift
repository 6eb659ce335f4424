import Foundation

/// The production ``HTTPClient``: libcurl multi on one driver thread, with total and
/// per-host limits, redirects, timeouts, a body limit and TLS verification always on.
public final class CurlHTTPClient: HTTPClient, @unchecked Sendable {
    // Invariant: `nextID` is only touched while holding `lock`; everything else is immutable.
    public let settings: HTTPClientSettings
    private let driver: CurlMultiDriver
    private let lock = NSLock()
    private var nextID = 0

    public init(settings: HTTPClientSettings = HTTPClientSettings()) {
        self.settings = settings
        driver = CurlMultiDriver(total: settings.maxConcurrent, perHost: settings.maxPerHost)
    }

    deinit {
        driver.shutdown()
    }

    /// Starts closing the client's connections on its own thread and returns at once;
    /// releasing the client still waits until they are closed, and a request sent after
    /// this is cancelled.
    ///
    /// For a caller about to release other things too: the refresh command closes its
    /// database meanwhile.
    public func beginClosing() {
        driver.stop()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let host = URLComponents(string: request.url)?.host?.lowercased() ?? ""
        guard WebURL.isHTTP(request.url) else {
            throw HTTPError.transport(url: SecretRedactor.redact(url: request.url), detail: localized("not an http or https URL"))
        }
        try Task.checkCancellation()
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        guard let transfer = CurlTransfer(id: id, request: request, host: host, settings: settings) else {
            throw HTTPError.transport(url: SecretRedactor.redact(url: request.url), detail: localized("libcurl could not create a handle"))
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                driver.submit(transfer)
            }
        } onCancel: {
            driver.cancel(id)
        }
    }
}
