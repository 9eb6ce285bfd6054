import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's HTTP endpoint (`http: {listen: 127.0.0.1:9464}`): metrics for Prometheus, a
/// health check, and named events posted to the running daemon (see ``ControlRoutes``).
///
/// One request per connection (`Connection: close`): it answers a scraper, an operator and a
/// few status pages, not a crowd. Each connection is held to its ``limits`` (by default a head
/// of 16 KiB within 10 s, a body of 64 KiB within 30 s, 60 s idle; see ``ControlServerLimits``),
/// so a client that sends too much, too slowly or nothing is answered and closed. A streamed response
/// (the page's Server-Sent Events) holds its connection; at most ``maxStreams`` at once, the next
/// is answered `503`. It binds in ``bind(host:port:routes:streamWriteTimeout:limits:)`` so that a
/// port in use is an error at start, and serves in ``run()`` until graceful shutdown.
public final class ControlServer: Service, Sendable {
    /// Where it listens, as bound (the real port when 0 was asked for).
    public let host: String
    /// The bound port.
    public let port: Int
    private let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let routes: ControlRoutes
    /// Each connection's kernel send buffer, bytes (the kernel doubles it).
    static let sendBuffer = 128 * 1024
    /// The most streamed responses open at once.
    public static let maxStreams = 16
    private let streams = Atomic<Int>(0)
    /// How long a streamed chunk may wait for a client that does not read before the
    /// connection is closed.
    public let streamWriteTimeout: Duration
    /// What each connection may send, and for how long.
    public let limits: ControlServerLimits

    /// Streamed responses open now.
    public var openStreams: Int { streams.load(ordering: .relaxed) }

    private init(
        host: String, port: Int, channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>,
        routes: ControlRoutes, streamWriteTimeout: Duration, limits: ControlServerLimits
    ) {
        self.streamWriteTimeout = streamWriteTimeout
        self.limits = limits
        self.host = host
        self.port = port
        self.channel = channel
        self.routes = routes
    }

    /// Binds `host:port` (0: any free port).
    /// - Parameters:
    ///   - host: the address to listen on.
    ///   - port: the port (0: any free one).
    ///   - routes: what it answers.
    ///   - streamWriteTimeout: how long a streamed chunk may wait for a client that does not read.
    ///   - limits: what each connection may send, and for how long.
    /// - Throws: ``ControlServerError`` saying why it cannot listen and what to change.
    public static func bind(
        host: String, port: Int, routes: ControlRoutes, streamWriteTimeout: Duration = .seconds(30),
        limits: ControlServerLimits = ControlServerLimits()
    ) async throws(ControlServerError) -> ControlServer {
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // NIO's default backlog (128) overflows when a burst of connections arrives faster
                // than a loaded machine accepts them (200 slow clients at once): they would be reset.
                .serverChannelOption(.backlog, value: 1024)
                // A fixed send buffer: what a client that stops reading holds in the kernel is
                // bounded (autotuning would let it grow to megabytes).
                .childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(Self.sendBuffer))
                .bind(host: host, port: port) { child in
                    child.eventLoop.makeCompletedFuture {
                        try configure(child.pipeline.syncOperations, limits: limits)
                        return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                            wrappingChannelSynchronously: child)
                    }
                }
            return ControlServer(
                host: host, port: channel.channel.localAddress?.port ?? port, channel: channel, routes: routes,
                streamWriteTimeout: streamWriteTimeout, limits: limits)
        } catch {
            throw ControlServerError(
                "cannot listen on \(host):\(port): \(Self.reason(error)); choose another address or port "
                    + "in 'http: {listen: …}', or stop what holds it")
        }
    }

    /// Why a bind failed, in words: the errno's meaning (NIO's `IOError` names the system call
    /// it came from, which says nothing to a person configuring a port).
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE: return "the address is already in use (another beacond, or another program, listens there)"
            case EACCES: return "permission denied (ports below 1024 need CAP_NET_BIND_SERVICE)"
            case EADDRNOTAVAIL: return "no interface of this machine has that address"
            default: return String(cString: strerror(io.errnoCode))
            }
        }
        return "\(error)"
    }

    /// The HTTP/1.1 codec, with the limiter before its decoder (it sees every byte the client
    /// sends) and the observer after it (it sees what the decoder made of them); the observer
    /// answers malformed requests in place of NIO's error handler.
    private static func configure(_ pipeline: ChannelPipeline.SynchronousOperations, limits: ControlServerLimits) throws {
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.maxHeadBytes
        decoderLimits.maxHeaderListSize = limits.maxHeadBytes
        try pipeline.configureHTTPServerPipeline(
            withErrorHandling: false, withEncoderConfiguration: HTTPResponseEncoder.Configuration(),
            withDecoderLimitConfiguration: decoderLimits)
        let limiter = ControlConnectionLimiter(limits: limits)
        try pipeline.addHandler(limiter, position: .after(pipeline.handler(type: HTTPResponseEncoder.self)))
        try pipeline.addHandler(ControlRequestObserver(limiter: limiter))
    }

    /// `http://host:port`.
    public var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// Serves until graceful shutdown (or cancellation), then closes the listening socket.
    public func run() async throws {
        let channel = channel
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await self.serve(connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            channel.channel.close(promise: nil)
        }
    }

    /// Closes the listening socket (``run()`` then returns).
    public func close() {
        channel.channel.close(promise: nil)
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body: [UInt8] = []
            // The limiter has refused a body over `limits.maxBodyBytes` before it gets here.
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                case .body(let buffer):
                    body += buffer.readableBytesView
                case .end:
                    guard let head else { return }
                    let response = await routes.respond(
                        to: ControlRequest(
                            method: head.method.rawValue, target: head.uri, body: body,
                            authorization: head.headers.first(name: "Authorization")))
                    if response.stream != nil, head.method != .HEAD {
                        try await stream(response, to: outbound, closed: connection.channel.closeFuture)
                    } else {
                        try await Self.write(response, headOnly: head.method == .HEAD, to: outbound)
                    }
                    return
                }
            }
        }
    }

    /// Writes a streamed response until its producer returns or the client goes away. The
    /// producer is cancelled the moment the connection closes, so a page that is closed frees
    /// its stream at once, not at the producer's next write (a quiet stream writes every 15 s).
    private func stream(
        _ response: ControlResponse, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        closed: EventLoopFuture<Void>
    ) async throws {
        guard streams.add(1, ordering: .relaxed).newValue <= Self.maxStreams else {
            streams.subtract(1, ordering: .relaxed)
            let busy = ControlResponse.error(503, "\(Self.maxStreams) streams are open already; close a page and retry")
            try await Self.write(busy, headOnly: false, to: outbound)
            return
        }
        defer { streams.subtract(1, ordering: .relaxed) }
        guard let body = response.stream else { return }
        var headers = HTTPHeaders([("Content-Type", response.contentType), ("Cache-Control", "no-cache")])
        for header in response.headers { headers.add(name: header.name, value: header.value) }
        try await outbound.write(
            .head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)))
        let timeout = streamWriteTimeout
        let writer = ControlStreamWriter { text in
            // A client that stops reading leaves the write waiting: give up after the timeout.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text)))) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw CancellationError()
                }
                try await group.next()
                group.cancelAll()
            }
        }
        // The producer runs as a task of its own so that the connection's close (which no write
        // is waiting on while the producer sleeps) can cancel it.
        let producer = Task { try await body(writer) }
        closed.whenComplete { _ in producer.cancel() }
        try await withTaskCancellationHandler {
            try await producer.value
        } onCancel: {
            producer.cancel()
        }
        try await outbound.write(.end(nil))
    }

    private static func write(
        _ response: ControlResponse, headOnly: Bool,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        let body = response.bytes.map { ByteBuffer(bytes: $0) } ?? ByteBuffer(string: response.body)
        var headers = HTTPHeaders([
            ("Content-Type", response.contentType), ("Content-Length", String(body.readableBytes)),
            ("Connection", "close"),
        ])
        for header in response.headers { headers.add(name: header.name, value: header.value) }

        try await outbound.write(
            .head(
                HTTPResponseHead(
                    version: .http1_1, status: HTTPResponseStatus(statusCode: response.status),
                    headers: headers)))
        if !headOnly { try await outbound.write(.body(.byteBuffer(body))) }
        try await outbound.write(.end(nil))
    }
}
