import Foundation

/// The state of one provider×section fetch: conditional-GET validators looked up and
/// staged, and the rate-limit signals seen.
///
/// Validators are only staged here; the refresher saves them with the items in one
/// transaction, so a fetch whose items were not stored is fetched in full next time.
public final class FetchSession: @unchecked Sendable {
    // Invariant: `staged` and `signal` are only touched while holding `lock`.
    private let memory: (any FetchMemory)?
    private let provider: String
    private let lock = NSLock()
    private var staged: [String: HTTPValidators] = [:]
    private var signal = RateLimitSignal()

    /// The budget this fetch shares with providers using the same API and token.
    let budget: SharedRateBudget?

    /// A session reading `provider`'s validators from `memory` (nil: always fetch in full).
    public init(memory: (any FetchMemory)?, provider: String = "", budget: SharedRateBudget? = nil) {
        self.memory = memory
        self.provider = provider
        self.budget = budget
    }

    func storedValidators(for key: String) -> HTTPValidators? {
        (try? memory?.validators(for: key, provider: provider)) ?? nil
    }

    func stage(_ validators: HTTPValidators, for key: String) {
        lock.withLock { staged[key] = validators }
    }

    /// Whether the store already holds item `id` of `provider` (for extra per-item requests
    /// that only new items deserve).
    public func isStored(provider: String, id: String) -> Bool {
        (try? memory?.holdsItem(provider: provider, id: id)) ?? false
    }

    /// Validators of bodies that changed, to save with the items.
    public var stagedValidators: [String: HTTPValidators] { lock.withLock { staged } }

    func observe(_ new: RateLimitSignal) {
        budget?.observe(new)
        lock.withLock {
            if let remaining = new.remaining { signal.remaining = min(signal.remaining ?? .max, remaining) }
            for (keyPath, value) in [(\RateLimitSignal.reset, new.reset), (\.retryAfter, new.retryAfter), (\.pollAfter, new.pollAfter)] {
                if let value { signal[keyPath: keyPath] = max(signal[keyPath: keyPath] ?? value, value) }
            }
        }
    }

    /// The combined rate-limit signal of every response in this fetch.
    public var rateLimit: RateLimitSignal { lock.withLock { signal } }
}

/// Upstream refused because the budget is spent; no request should be made before `until`.
public struct RateLimitedError: Error, Sendable, CustomStringConvertible {
    public var url: String
    public var until: Date
    /// What the refusal's body said (`{"message": …}` or the page's text), when it said anything.
    public var message: String?

    public init(url: String, until: Date, message: String? = nil) {
        self.url = url
        self.until = until
        self.message = message
    }

    public var description: String {
        "rate limited by \(url) until \(ISOTimestamp.format(until))" + (message.map { ": \($0)" } ?? "")
    }
}

/// An API answered 401 to a request carrying the configured token: it expired or was revoked.
public struct TokenRejectedError: Error, Sendable, CustomStringConvertible {
    /// The environment variable the token came from.
    public var variable: String
    /// The request URL, secrets redacted.
    public var url: String
    public var excerpt: String

    public init(variable: String, url: String, excerpt: String) {
        self.variable = variable
        self.url = url
        self.excerpt = excerpt
    }

    public var description: String {
        "token rejected (expired or revoked): renew the token in $\(variable) (HTTP 401 from \(url)\(excerpt.isEmpty ? "" : ": \(excerpt)"))"
    }
}

extension ProviderContext {
    /// Whether `request` carries a token: a credential header other than a cookie, or a
    /// credential query parameter.
    static func carriesToken(_ request: HTTPRequest) -> Bool {
        request.headers.contains { SecretRedactor.isSecretHeader($0.0) && !["cookie", "set-cookie"].contains($0.0.lowercased()) }
            || (URLComponents(string: request.url)?.queryItems ?? []).contains { SecretRedactor.isSecretParameter($0.name) }
    }

    /// GETs `url` conditionally: nil means unchanged (a 304, or the same body as last time).
    ///
    /// Stored ETag/Last-Modified are sent; rate-limit headers are recorded; a status other
    /// than 2xx/304 throws ``HTTPError/status(url:code:excerpt:)`` (or ``RateLimitedError``
    /// when the server says the budget is spent), with secrets redacted from the URL.
    ///
    /// With `conditional` false the body is always returned (for a request whose other half
    /// changed); rate limits, errors and validators are handled the same way.
    ///
    /// With `signedIn`, a web-page request carries the provider's session cookie when
    /// `cookie_env` is set and `url` is on its web origin (``WebCookie``).
    public func get(
        _ url: String, headers: [(String, String)] = [], conditional: Bool = true, signedIn: Bool = false
    ) async throws -> HTTPResponse? {
        let key = SecretRedactor.redact(url: url)
        // Another provider on the same token already spent the budget: do not ask.
        if let until = session.budget?.blockedUntil, until > now {
            throw RateLimitedError(url: key, until: until)
        }
        var request = HTTPRequest(url: url, headers: headers)
        if signedIn, let cookie = webCookie, cookie.allows(url) { request.headers.append(("Cookie", cookie.value)) }
        let known = conditional ? session.storedValidators(for: key) : nil
        if let etag = known?.etag { request.headers.append(("If-None-Match", etag)) }
        if let modified = known?.lastModified { request.headers.append(("If-Modified-Since", modified)) }
        let response = try await http.send(request)
        let signal = RateLimitPolicy.signal(from: response, now: now)
        session.observe(signal)
        if response.status == 304 { return nil }
        if response.status == 401, let variable = tokenVariable, Self.carriesToken(request) {
            throw TokenRejectedError(variable: variable, url: key, excerpt: HTTPErrorExcerpt.make(response.body))
        }
        guard (200..<300).contains(response.status) else {
            if [403, 429, 503].contains(response.status), let until = signal.blockedUntil {
                let excerpt = HTTPErrorExcerpt.make(response.body)
                throw RateLimitedError(url: key, until: until, message: excerpt.isEmpty ? nil : excerpt)
            }
            throw HTTPError.status(url: key, code: response.status, excerpt: HTTPErrorExcerpt.make(response.body))
        }
        let hash = BodyHash.hex(response.body)
        if let known, known.bodyHash == hash { return nil }
        session.stage(
            HTTPValidators(etag: response.header("ETag"), lastModified: response.header("Last-Modified"), bodyHash: hash), for: key)
        return response
    }
}
