import NIOCore
import NIOHTTP1

/// Watches each request and response of one connection, just after the HTTP decoder.
///
/// It closes the connection when a deadline of ``ServeLimits`` passes (idle, head, body),
/// closes it after answering a request that did not ask to keep it (HTTP/1.0 without
/// `keep-alive`, or `Connection: close`), and puts the security headers on every response,
/// the framework's own 400 for an unparsable request included.
final class ExchangeGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Headers every response carries; ``WebSite`` sets the same on its own answers.
    static let securityHeaders = [
        ("Content-Security-Policy", WebSite.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
    ]

    private let limits: ServeLimits
    private var context: ChannelHandlerContext?
    private var deadline: Scheduled<Void>?
    /// Between a request's head and its end.
    private var readingBody = false
    /// Whether each request read and not yet answered may keep the connection, oldest first.
    private var keepAlive: [Bool] = []
    /// Whether bytes of a next request arrived since the connection went idle.
    private var headStarted = false

    init(limits: ServeLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        schedule()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    /// Called by ``ConnectionGate`` for every read from the socket.
    func bytesArrived() {
        guard !headStarted, !readingBody, keepAlive.isEmpty else { return }
        headStarted = true
        schedule()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            readingBody = true
            headStarted = false
            keepAlive.append(head.isKeepAlive)
            schedule()
        case .body:
            break
        case .end:
            readingBody = false
            schedule()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            for (name, value) in Self.securityHeaders where !head.headers.contains(name: name) {
                head.headers.add(name: name, value: value)
            }
            if keepAlive.first == false, !head.headers.contains(name: "Connection") {
                head.headers.add(name: "Connection", value: "close")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            let close = keepAlive.isEmpty ? false : !keepAlive.removeFirst()
            if close {
                context.writeAndFlush(data, promise: promise)
                context.close(mode: .all, promise: nil)
            } else {
                context.write(data, promise: promise)
                schedule()
            }
        }
    }

    /// Replaces the deadline with the one the connection's state calls for.
    private func schedule() {
        deadline?.cancel()
        deadline = nil
        guard let context else { return }
        let wait: TimeAmount
        if readingBody {
            wait = limits.body
        } else if !keepAlive.isEmpty {
            return  // the server is answering: its own work has no deadline here
        } else {
            wait = headStarted ? limits.header : limits.idle
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: wait) { [weak self] in
            self?.deadline = nil
            self?.context?.close(promise: nil)
        }
    }
}
