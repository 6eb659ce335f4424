import Aggregator
import Foundation

/// The requests V2EX sections make, and V2EX's ways of refusing turned into clear errors.
extension V2EXProvider {
    /// GETs a JSON endpoint (conditionally unless told otherwise); nil when unchanged.
    func fetchJSON(
        _ url: String, context: ProviderContext, token: String? = nil, conditional: Bool = true
    ) async throws
        -> [UInt8]?
    {
        let (url, headers) = TokenPlacement.bearer.authorize(url, headers: [("Accept", "application/json")], token: token)
        guard let response = try await send(url, headers: headers, context: context, conditional: conditional) else {
            return nil
        }
        // A CDN or sign-in page where JSON was expected is a refusal, never an empty list.
        if let first = response.body.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), first == UInt8(ascii: "<") {
            if let document = try? MarkupDocument.html(response.body) {
                try V2EXPageCheck.check(document)
            }
            throw ProviderError.unexpectedPayload(detail: localized("HTML where JSON was expected from \(SecretRedactor.redact(url: url))"))
        }
        return response.body
    }

    /// GETs an HTML page conditionally, signed in when `cookie_env` is set; nil when unchanged.
    func fetchPage(_ url: String, context: ProviderContext) async throws -> HTTPResponse? {
        try await send(url, headers: [("Accept", "text/html")], context: context, conditional: true, signedIn: true)
    }

    private func send(
        _ url: String, headers: [(String, String)], context: ProviderContext, conditional: Bool,
        signedIn: Bool = false
    ) async throws
        -> HTTPResponse?
    {
        let refusals = Refusals(
            site: "V2EX", [403: .blocked(barrier: "CDN", advice: nil), 401: .signIn(hint: localized("check $\(tokenVariable)"))])
        let response = try await context.get(url, headers: headers, conditional: conditional, signedIn: signedIn, refusals: refusals)
        if let response, let path = URLComponents(string: response.url)?.path, path.hasPrefix("/signin") {
            throw ProviderError.needsSignIn(
                detail: localized("V2EX redirected to its sign-in page; this section is login-only or needs a token (token_env)"))
        }
        return response
    }
}
