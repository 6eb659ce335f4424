internal import CCurl
import Foundation

/// One request in flight: the easy handle and everything libcurl writes into.
///
/// Owned by the driver thread from submission to completion; callbacks reach it through
/// an unretained pointer the driver keeps alive in its active table.
final class CurlTransfer {
    let id: Int
    let request: HTTPRequest
    /// The host the per-host limit counts it against (lowercased).
    let host: String
    let redactedURL: String
    let settings: HTTPClientSettings
    let handle: UnsafeMutableRawPointer
    /// libcurl does not copy header lists: freed only after the transfer ends.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    var body: [UInt8] = []
    var headers: [(String, String)] = []
    var exceededLimit = false
    var continuation: CheckedContinuation<HTTPResponse, Error>?

    init?(id: Int, request: HTTPRequest, host: String, settings: HTTPClientSettings) {
        _ = CurlMultiDriver.globalInit
        guard let handle = curl_easy_init() else { return nil }
        self.id = id
        self.request = request
        self.host = host
        self.redactedURL = SecretRedactor.redact(url: request.url)
        self.settings = settings
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// The transfer's deadline: the request's own when it is shorter than the client's.
    var timeoutSeconds: Int {
        max(1, min(request.timeoutSeconds ?? settings.totalTimeoutSeconds, settings.totalTimeoutSeconds))
    }

    /// Sets every option; the caller adds the handle to the multi afterwards.
    func configure() {
        aggr_easy_setopt_string(handle, CURLOPT_URL, request.url)
        // A POST with a body is libcurl's own POST, so a 302 after it is followed with a GET
        // as browsers do (a custom "POST" would post the form again to the redirect).
        let plainPost = request.method == "POST" && request.body != nil
        aggr_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method == "GET" || plainPost ? nil : request.method)
        aggr_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        aggr_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        aggr_easy_setopt_long(handle, CURLOPT_MAXREDIRS, settings.maxRedirects)
        // verbatim: libcurl's protocol list
        aggr_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")  // verbatim: libcurl's protocol list
        aggr_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")  // verbatim: libcurl's protocol list
        // An empty string asks for every encoding libcurl can decode (gzip, deflate, br, zstd).
        aggr_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        aggr_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        aggr_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutSeconds * 1000)
        aggr_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutSeconds * 1000)
        aggr_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxBodyBytes))
        aggr_easy_setopt_string(handle, CURLOPT_USERAGENT, settings.userAgent)
        aggr_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        for (name, value) in request.headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        if let body = request.body {
            // libcurl copies the bytes; an empty `Expect:` stops it waiting a second for
            // `100 Continue` before sending a body over 1 KiB.
            aggr_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            if body.isEmpty {
                aggr_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                body.withUnsafeBufferPointer { bytes in
                    _ = aggr_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
            headerList = curl_slist_append(headerList, "Expect:")
        }
        aggr_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
        let context = Unmanaged.passUnretained(self).toOpaque()
        aggr_easy_setopt_write(handle, CURLOPT_WRITEFUNCTION, curlWriteBody)
        aggr_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        aggr_easy_setopt_write(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        aggr_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
    }

    /// The response or the typed error for libcurl's result `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, Error> {
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var status = 0
        aggr_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        aggr_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        let finalURL = effective.map { String(cString: $0) } ?? request.url
        return .success(HTTPResponse(status: status, headers: headers, body: body, url: finalURL))
    }

    private func error(for code: CURLcode) -> HTTPError {
        let detail = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        let clean = SecretRedactor.redact(text: TerminalText.sanitize(detail), secrets: secretValues)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dns(host: URLComponents(string: request.url)?.host ?? "?", url: redactedURL)
        case CURLE_COULDNT_CONNECT: return .connect(url: redactedURL, detail: clean)
        case CURLE_OPERATION_TIMEDOUT: return .timeout(url: redactedURL, seconds: timeoutSeconds)
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(url: redactedURL, limit: settings.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL: return .forbiddenRedirect(url: redactedURL)
        case CURLE_FILESIZE_EXCEEDED: return .tooLarge(url: redactedURL, limit: settings.maxBodyBytes)
        case CURLE_WRITE_ERROR where exceededLimit: return .tooLarge(url: redactedURL, limit: settings.maxBodyBytes)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .tls(url: redactedURL, detail: clean)
        default: return .transport(url: redactedURL, detail: clean)
        }
    }

    /// Credential values of this request, scrubbed from any libcurl message.
    private var secretValues: [String] { SecretRedactor.secretValues(of: request) }

    /// Takes one header line's bytes; a status line starts a new response (after a redirect or 100).
    func receiveHeaderLine(_ line: UnsafeBufferPointer<UInt8>) {
        switch HTTPHeaderLine(line) {
        case .status: headers.removeAll()
        case .field(let name, let value): headers.append((name, value))
        case .other: break
        }
    }
}

/// libcurl's body callback: append, or stop when the body would pass the limit.
private let curlWriteBody: aggr_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if transfer.body.count + length > transfer.settings.maxBodyBytes {
        transfer.exceededLimit = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// libcurl's header callback: one header line per call.
private let curlWriteHeader: aggr_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.receiveHeaderLine(UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}
