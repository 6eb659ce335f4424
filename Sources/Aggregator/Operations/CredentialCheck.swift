import Foundation

/// `aggr providers --check ID`: whether a provider's token and session cookie are accepted
/// right now, with one cheap request each.
public struct CredentialCheck: Sendable {
    /// What the site said about one credential.
    public enum Verdict: Sendable, Equatable {
        case accepted
        case rejected(String)
        case notConfigured(String)
        /// The question could not be asked (network failure, server error, no check known).
        case unknown(String)
    }

    /// One credential and its verdict.
    public struct Finding: Sendable, Equatable {
        /// "token ($GITHUB_TOKEN)" or "cookie ($V2EX_COOKIE)".
        public var credential: String
        public var verdict: Verdict
    }

    public var http: any HTTPClient
    public var environment: [String: String]

    public init(http: any HTTPClient, environment: [String: String]) {
        self.http = http
        self.environment = environment
    }

    /// Checks the token (when the type has a token check) and the cookie (when `cookie_env` is set).
    public func run(_ entry: ProviderConfiguration, metadata: ProviderMetadata) async -> [Finding] {
        var findings: [Finding] = []
        if let variable = metadata.tokenVariable(for: entry) {
            findings.append(
                Finding(credential: "token ($\(variable))", verdict: await checkToken(entry, metadata: metadata, variable: variable)))
        }
        if let variable = entry.cookieEnv {
            findings.append(
                Finding(credential: "cookie ($\(variable))", verdict: await checkCookie(entry, metadata: metadata, variable: variable)))
        }
        return findings
    }

    func checkToken(_ entry: ProviderConfiguration, metadata: ProviderMetadata, variable: String) async -> Verdict {
        guard let token = ProviderContext.token(named: variable, in: environment) else {
            return .notConfigured(localized("$\(variable) is not set"))
        }
        guard let check = metadata.tokenCheck else {
            return .unknown(localized("type \(metadata.typeName) has no request that checks a token"))
        }
        let (url, headers) = check.placement.authorize(metadata.apiURL(for: entry) + check.path, headers: check.headers, token: token)
        return await verdict(HTTPRequest(url: url, headers: headers), secrets: [token]) { response in
            (200..<300).contains(response.status) ? .accepted : nil
        }
    }

    func checkCookie(_ entry: ProviderConfiguration, metadata: ProviderMetadata, variable: String) async -> Verdict {
        let root = metadata.webURL(for: entry)
        guard
            let cookie = WebCookie(value: environment[variable], variable: variable, webRoot: root, webRootConfigured: entry.webURL != nil)
        else {
            return environment[variable]?.isEmpty == false
                ? .unknown(localized("the web root \(root) is not HTTPS; set web_url to send the cookie there"))
                : .notConfigured(localized("$\(variable) is not set"))
        }
        let request = HTTPRequest(
            url: root.hasSuffix("/") ? root : root + "/", headers: [("Accept", "text/html"), ("Cookie", cookie.value)])
        return await verdict(request, secrets: [cookie.value]) { response in
            // Signed out: a redirect to a sign-in path, or a page with a password field.
            let path = URLComponents(string: response.url)?.path.lowercased() ?? ""
            let body = String(decoding: response.body.prefix(1 << 20), as: UTF8.self).lowercased()
            if ["signin", "login", "sign_in", "session"].contains(where: path.contains) || body.contains("type=\"password\"") {
                return .rejected(localized("the site answered with its sign-in page: refresh the cookie in $\(variable)"))
            }
            return (200..<300).contains(response.status) ? .accepted : nil
        }
    }

    /// Sends `request`; `judge` decides on an answer it recognizes, else the status decides.
    func verdict(_ request: HTTPRequest, secrets: [String], judge: (HTTPResponse) -> Verdict?) async -> Verdict {
        do {
            let response = try await http.send(request)
            if let decided = judge(response) { return decided }
            let excerpt = SecretRedactor.redact(text: HTTPErrorExcerpt.make(response.body), secrets: secrets)
            let detail = localized(
                "HTTP \(response.status) from \(SecretRedactor.redact(url: request.url))\(excerpt.isEmpty ? "" : ": \(excerpt)")")
            return [401, 403].contains(response.status) ? .rejected(detail) : .unknown(detail)
        } catch {
            return .unknown(SecretRedactor.redact(text: "\(error)", secrets: secrets))
        }
    }
}
