import Foundation
import Logging

/// What a provider may use while fetching.
///
/// The shared HTTP client, the clock, a logger and the environment tokens come from;
/// providers reach the outside world only through it.
public struct ProviderContext: Sendable {
    public var http: any HTTPClient
    /// The time the refresh started; relative dates resolve against the response's Date.
    public var now: Date
    public var logger: Logger
    /// The environment tokens are read from.
    public var environment: [String: String]
    /// Validators and rate-limit signals of this fetch (see ``get(_:headers:)``).
    public var session: FetchSession
    /// The provider's signed-in session, for requests that ask for it (`cookie_env`).
    public var webCookie: WebCookie?
    /// The variable the provider's token came from, when one is set: a 401 to a request
    /// carrying it is a ``TokenRejectedError`` naming it.
    public var tokenVariable: String?

    public init(
        http: any HTTPClient, now: Date, logger: Logger, environment: [String: String], session: FetchSession = FetchSession(memory: nil)
    ) {
        self.http = http
        self.now = now
        self.logger = logger
        self.environment = environment
        self.session = session
    }

    /// The token for `configuration`, read from its `token_env` or the type's default.
    public func token(for configuration: ProviderConfiguration, metadata: ProviderMetadata) -> String? {
        Self.token(named: metadata.tokenVariable(for: configuration), in: environment)
    }
}
