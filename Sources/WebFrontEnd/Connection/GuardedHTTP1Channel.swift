import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with aggr's guards in its pipeline: ``ConnectionGate`` in
/// front of the HTTP decoder, ``ExchangeGuard`` just after it.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let limits: ServeLimits
    let counter: ConnectionCounter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = limits
        let counter = counter
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let exchange = ExchangeGuard(limits: limits)
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(exchange, position: .after(decoder))
            try operations.addHandler(ConnectionGate(counter: counter, exchange: exchange), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with ``ServeLimits`` enforced on every connection.
    static func guarded(_ limits: ServeLimits, counter: ConnectionCounter) -> HTTPServerBuilder {
        .init { responder in
            GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder), limits: limits, counter: counter)
        }
    }
}
