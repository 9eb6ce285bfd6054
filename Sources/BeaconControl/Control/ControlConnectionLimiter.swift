import NIOCore
import NIOHTTP1

/// Holds one control connection to its ``ControlServerLimits``: the NIO side of a
/// ``ControlConnectionState``, which it feeds and obeys.
///
/// It sits between the response encoder and the request decoder, so it sees every byte the
/// client sends before the decoder does (a head is measured in what arrived, spaces and blank
/// lines included) and writes its answers as HTTP responses. ``ControlRequestObserver``, after
/// the decoder, tells it what the bytes were (a head, body bytes, the end, a malformed request).
/// One timer, set to the state's deadline, covers the idle, head, body and linger limits; NIO's
/// `IdleStateHandler` does not fit: it measures time since the last read, which a slowloris
/// client resets with a byte every few seconds, and it would cut a long response that reads
/// nothing.
final class ControlConnectionLimiter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var state: ControlConnectionState
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    private var timerDeadline: ContinuousClock.Instant?

    /// A limiter for a connection accepted now.
    init(limits: ControlServerLimits) {
        state = ControlConnectionState(limits: limits, now: .now)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        rearm()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let count = Self.unwrapInboundIn(data).readableBytes
        // Once an error is answered, what still arrives is read and dropped.
        guard state.received(count, now: .now) else { return }
        rearm()
        // The decoder parses synchronously: by the time this returns, ``ControlRequestObserver``
        // has reported whether the head is complete.
        context.fireChannelRead(data)
        perform(state.decoded(now: .now))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Lingering: keep reading (and dropping) until the client closes or the linger ends.
        if state.isAnswered { context.read() }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.closed()
        rearm()
        context.fireChannelInactive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = Self.unwrapOutboundIn(data) {
            state.responseSent(now: .now)
            rearm()
        }
        context.write(data, promise: promise)
    }

    /// A part the decoder made of the bytes; returns whether it goes on to the server (not once
    /// an error has been answered).
    func received(_ part: HTTPServerRequestPart) -> Bool {
        switch part {
        case .head(let head):
            let length = head.headers.first(name: "Content-Length").flatMap { Int($0) }
            perform(state.headReceived(contentLength: length, now: .now))
        case .body(let buffer):
            perform(state.bodyReceived(buffer.readableBytes, now: .now))
        case .end:
            state.requestReceived()
            rearm()
        }
        return !state.isAnswered
    }

    /// The decoder refused the bytes.
    func malformed(_ error: HTTPParserError) {
        let (status, message): (Int, String) =
            switch error {
            case .headerOverflow:
                (431, "the request's head (request line and headers) is longer than \(state.limits.maxHeadBytes) bytes")
            case .invalidChunkSize:
                (400, "a chunk size is not a hexadecimal number below 2^64")
            default:
                (400, "the request is not valid HTTP/1.1 (\(error))")
            }
        perform(state.malformed(status: status, message: message, now: .now))
    }

    private func perform(_ action: ControlConnectionState.Action) {
        defer { rearm() }
        guard let context else { return }
        switch action {
        case .none:
            break
        case .close:
            context.close(promise: nil)
        case .answer(let status, let message):
            let response = ControlResponse.error(status, message)
            let body = ByteBuffer(string: response.body)
            let headers = HTTPHeaders([
                ("Content-Type", response.contentType), ("Content-Length", String(body.readableBytes)),
                ("Connection", "close"),
            ])
            let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
            // Half-close: the client reads the answer and an end of stream; a full close with
            // its bytes unread would reset the connection, and it might lose the answer.
            context.close(mode: .output, promise: nil)
            context.read()
        }
    }

    /// Sets the timer to the state's deadline, if that has changed.
    private func rearm() {
        guard state.deadline != timerDeadline else { return }
        timer?.cancel()
        timer = nil
        timerDeadline = state.deadline
        guard let deadline = state.deadline, let context else { return }
        let delay = max(.zero, ContinuousClock.now.duration(to: deadline))
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
            timer = nil
            timerDeadline = nil
            perform(state.timerFired(now: .now))
        }
    }
}
