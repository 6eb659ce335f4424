import Aggregator
import NIOCore

/// The first handler of every connection: refuses connections past the limit and tells
/// the connection's ``ExchangeGuard`` when request bytes arrive (which starts the header
/// deadline).
final class ConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counter: ConnectionCounter
    private let exchange: ExchangeGuard
    private var counted = false
    private var refused = false

    init(counter: ConnectionCounter, exchange: ExchangeGuard) {
        self.counter = counter
        self.exchange = exchange
    }

    /// What a connection past the limit gets before it is closed.
    static let fullResponse: String = {
        let body = localized("too many connections: try again soon\n")
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n"
            + "Content-Security-Policy: default-src 'none'\r\nX-Content-Type-Options: nosniff\r\n\r\n" + body
    }()

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !counted, !refused else { return }
        if counter.admit() {
            counted = true
        } else {
            refused = true
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: Self.fullResponse)), promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        exchange.bytesArrived()
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            counter.release()
        }
        context.fireChannelInactive()
    }
}
