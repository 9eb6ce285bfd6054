import NIOCore
import NIOHTTP1

/// Reports what the request decoder made of a control connection's bytes to the connection's
/// ``ControlConnectionLimiter`` (a head, body bytes, the end, a malformed request), and passes a
/// part on to the server only while the limiter lets it: a request refused (`413` for its
/// `Content-Length`, say) never reaches a route.
///
/// It replaces NIO's `HTTPServerProtocolErrorHandler`, which answers every decoding error `400`:
/// a head too long is answered `431` here.
final class ControlRequestObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let limiter: ControlConnectionLimiter

    /// An observer reporting to `limiter`.
    init(limiter: ControlConnectionLimiter) {
        self.limiter = limiter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if limiter.received(Self.unwrapInboundIn(data)) {
            context.fireChannelRead(data)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // Answered by the limiter, which closes the connection.
        limiter.malformed(error)
    }
}
