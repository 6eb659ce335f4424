/// What a site's error statuses mean: the one mapping from an HTTP refusal to a
/// ``ProviderError``, so a provider states its table instead of writing catch clauses.
///
/// ```swift
/// let refusals = Refusals(site: "Gitee", [401: .signIn(hint: "check $GITEE_TOKEN"), 404: .notFound])
/// let response = try await context.get(url, refusals: refusals)
/// ```
public struct Refusals: Sendable {
    /// What one status means.
    public enum Meaning: Sendable {
        /// A token or sign-in is missing or refused; `hint` says what to do ("check $X").
        case signIn(hint: String)
        /// A CDN or firewall (`barrier`, "CDN") answered; `advice` says what still works.
        case blocked(barrier: String, advice: String?)
        /// The page, repository or account does not exist.
        case notFound
    }

    /// The site's name as a user knows it ("GitHub").
    public var site: String
    public var meanings: [Int: Meaning]

    public init(site: String, _ meanings: [Int: Meaning]) {
        self.site = site
        self.meanings = meanings
    }

    /// The provider error `error` means on this site, or `error` itself when it is not a
    /// status the table names.
    public func reading(_ error: Error) -> Error {
        guard case HTTPError.status(let url, let code, let excerpt) = error, let meaning = meanings[code] else { return error }
        switch meaning {
        case .signIn(let hint):
            return ProviderError.needsSignIn(
                detail: localized("\(site) refused the request (HTTP \(code) from \(url))") + (excerpt.isEmpty ? "" : ": \(excerpt)")
                    + "; \(hint)")
        case .blocked(let barrier, let advice):
            return ProviderError.blocked(
                detail: localized("blocked by \(site)'s \(barrier) (HTTP \(code) from \(url))") + (advice.map { "; \($0)" } ?? ""))
        case .notFound:
            return ProviderError.notFound(
                detail: localized("\(site): \(excerpt.isEmpty ? "not found" : excerpt) (HTTP \(code) from \(url))"))
        }
    }
}

extension ProviderContext {
    /// ``get(_:headers:conditional:signedIn:)``, with the statuses `refusals` names turned
    /// into provider errors.
    public func get(
        _ url: String, headers: [(String, String)] = [], conditional: Bool = true, signedIn: Bool = false, refusals: Refusals
    ) async throws -> HTTPResponse? {
        do {
            return try await get(url, headers: headers, conditional: conditional, signedIn: signedIn)
        } catch {
            throw refusals.reading(error)
        }
    }
}
