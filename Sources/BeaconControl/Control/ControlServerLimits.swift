/// What one connection to the ``ControlServer`` may hold and for how long: the defences against
/// a client that sends too much, too slowly, or nothing at all (slowloris).
///
/// | limit | when | answer |
/// |---|---|---|
/// | ``maxHeadBytes`` | the request line and headers are longer | `431`, closed |
/// | ``headTimeout`` | the head is not complete this long after its first byte | `408`, closed |
/// | ``maxBodyBytes`` | the body (`Content-Length`, or the chunks received) is larger | `413`, closed |
/// | ``bodyTimeout`` | the body is not complete this long after the head | `408`, closed |
/// | ``idleTimeout`` | a connection has no request in progress (none begun, or answered) | closed quietly |
///
/// A malformed request (an unparsable chunk size, one that overflows 64 bits) is answered `400`.
/// A chunk announced absurdly large (`FFFFFFFFFFFFFFFF`) counts by what arrives: `413` once that
/// is over ``maxBodyBytes``, `408` at ``bodyTimeout`` if it is not.
/// Nothing limits a response in progress: a stream of Server-Sent Events has its own write
/// timeout (`streamWriteTimeout` of ``ControlServer/bind(host:port:routes:streamWriteTimeout:limits:)``).
///
/// After an error answer the server stops sending and, for at most ``closeLinger``, reads and
/// discards what the client still sends, so that the client reads the answer rather than a
/// connection reset; then it closes.
public struct ControlServerLimits: Sendable, Equatable {
    /// The most bytes of a request's head (request line and headers, every byte the client sends
    /// before the body, line endings included). Default 16 KiB.
    public var maxHeadBytes: Int
    /// The largest body, whether announced by `Content-Length` or sent in chunks. Default 64 KiB.
    public var maxBodyBytes: Int
    /// How long a request's head may take, from its first byte to its blank line. Default 10 s.
    public var headTimeout: Duration
    /// How long a request's body may take, from the end of the head to its last byte. Default 30 s.
    public var bodyTimeout: Duration
    /// How long a connection may stay open with no request in progress. Default 60 s.
    public var idleTimeout: Duration
    /// How long, after an error answer, what the client still sends is read and discarded before
    /// the connection closes. Default 2 s.
    public var closeLinger: Duration

    /// Creates limits; every argument has the daemon's default.
    public init(
        maxHeadBytes: Int = 16 * 1024, maxBodyBytes: Int = 64 * 1024, headTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60), closeLinger: Duration = .seconds(2)
    ) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.closeLinger = closeLinger
    }
}
