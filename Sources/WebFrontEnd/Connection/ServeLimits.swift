import Aggregator
import NIOCore

/// How long `aggr serve` waits on a client, and how many it holds at once.
///
/// A connection that sends nothing, sends its request head slowly (slowloris) or trickles
/// its body is closed at these deadlines, so idle or half-sent connections cannot pile up;
/// past ``maximumConnections`` a new connection is answered 503 and closed at once.
public struct ServeLimits: Sendable, Equatable {
    /// From the connection's start or the last response to the first byte of the next request.
    public var idle: TimeAmount = .seconds(60)
    /// From a request's first byte to the end of its head.
    public var header: TimeAmount = .seconds(10)
    /// From the end of a request's head to the end of its body.
    public var body: TimeAmount = .seconds(30)
    /// Connections open at once; more are refused.
    public var maximumConnections = 2_048

    public init() {}

    /// The defaults with what `serve` in providers.json overrides.
    public init(_ settings: ServeSettings) {
        if let span = settings.idleTimeout { idle = .seconds(Int64(span.seconds)) }
        if let span = settings.headerTimeout { header = .seconds(Int64(span.seconds)) }
        if let span = settings.bodyTimeout { body = .seconds(Int64(span.seconds)) }
        if let count = settings.maximumConnections { maximumConnections = count }
    }
}
