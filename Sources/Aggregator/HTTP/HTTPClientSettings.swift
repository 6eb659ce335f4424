/// Limits and identity of the HTTP client.
public struct HTTPClientSettings: Sendable, Equatable {
    public var connectTimeoutSeconds = 10
    public var totalTimeoutSeconds = 30
    /// Bodies larger than this fail while receiving, never after.
    public var maxBodyBytes = 20 * 1_048_576
    public var maxRedirects = 5
    /// Transfers in flight across all hosts.
    public var maxConcurrent = 256
    /// Transfers in flight to one host; GitHub asks clients not to burst, so keep it small.
    public var maxPerHost = 4
    public var userAgent = "aggr/\(AggregatorVersion.current) (+\(AggregatorVersion.projectURL))"

    public init() {}
}
