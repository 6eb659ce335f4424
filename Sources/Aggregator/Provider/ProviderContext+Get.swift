import Foundation

/// The conditional GET every provider fetches through: validators sent, rate limits read.
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
