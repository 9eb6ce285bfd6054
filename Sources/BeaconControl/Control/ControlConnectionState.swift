/// One control connection's progress against its ``ControlServerLimits``: a state machine that
/// is given the time and what arrived, and says what to do. It reads no clock and does no I/O;
/// ``ControlConnectionLimiter`` feeds it on the connection's event loop and does what it says.
///
/// ```
/// idle ──first byte──▶ head ──head complete──▶ body ──end──▶ responding ──response sent──▶ idle
///   │ idleTimeout        │ > maxHeadBytes: 431    │ > maxBodyBytes: 413
///   ▼                    │ headTimeout: 408       │ bodyTimeout: 408
/// closed ◀─closeLinger── closing ◀────────────────┘ (a malformed request: 400)
/// ```
///
/// A response in progress (a stream of Server-Sent Events) has no deadline here.
struct ControlConnectionState {
    /// A moment on the connection's clock.
    typealias Instant = ContinuousClock.Instant

    /// What the connection is doing.
    enum Phase: Equatable {
        /// No request in progress: none begun, or the last one answered.
        case idle
        /// A request's head is arriving; `bytes` of it so far.
        case head(bytes: Int)
        /// The head is complete; `bytes` of the body so far.
        case body(bytes: Int)
        /// The request is complete; its response is being written.
        case responding
        /// An error was answered and the output shut; what still arrives is discarded.
        case closing
        /// Closed.
        case closed
    }

    /// What the connection must do now.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Answer `status` with `{"error": message}`, shut the output, discard what arrives.
        case answer(status: Int, message: String)
        /// Close, without an answer.
        case close
    }

    /// The limits it holds the connection to.
    let limits: ControlServerLimits
    /// What the connection is doing.
    private(set) var phase: Phase = .idle
    /// When ``timerFired(now:)`` next has something to do (`nil`: nothing will).
    private(set) var deadline: Instant?

    /// A connection opened at `now`, idle.
    init(limits: ControlServerLimits, now: Instant) {
        self.limits = limits
        deadline = now + limits.idleTimeout
    }

    /// Whether an error has been answered (or the connection closed): nothing more of the
    /// request goes to the server.
    var isAnswered: Bool { phase == .closing || phase == .closed }

    /// `count` bytes arrived from the client; returns whether to pass them to the HTTP decoder
    /// (not once an error has been answered). The first byte of a request starts its head's clock.
    mutating func received(_ count: Int, now: Instant) -> Bool {
        switch phase {
        case .idle:
            phase = .head(bytes: count)
            deadline = now + limits.headTimeout
        case .head(let bytes):
            phase = .head(bytes: bytes + count)
        case .body, .responding:
            break
        case .closing, .closed:
            return false
        }
        return true
    }

    /// The decoder has taken what arrived: a head still incomplete after more than
    /// `maxHeadBytes` is refused (whatever its bytes: a request line without an end, endless
    /// spaces, blank lines).
    mutating func decoded(now: Instant) -> Action {
        guard case .head(let bytes) = phase, bytes > limits.maxHeadBytes else { return .none }
        return answer(
            431, "the request's head (request line and headers) is longer than \(limits.maxHeadBytes) bytes", now: now)
    }

    /// A request's head is complete; `contentLength` is what it announces (`nil`: none, or chunked).
    mutating func headReceived(contentLength: Int?, now: Instant) -> Action {
        switch phase {
        case .idle, .head:
            if let contentLength, contentLength > limits.maxBodyBytes { return bodyTooLarge(now: now) }
            phase = .body(bytes: 0)
            deadline = now + limits.bodyTimeout
            return .none
        case .body, .responding, .closing, .closed:
            return .none
        }
    }

    /// `count` more bytes of the body (decoded: without the chunks' framing).
    mutating func bodyReceived(_ count: Int, now: Instant) -> Action {
        guard case .body(let bytes) = phase else { return .none }
        guard bytes + count <= limits.maxBodyBytes else { return bodyTooLarge(now: now) }
        phase = .body(bytes: bytes + count)
        return .none
    }

    /// The request is complete: its response has no deadline.
    mutating func requestReceived() {
        guard case .body = phase else { return }
        phase = .responding
        deadline = nil
    }

    /// The response is written: the connection is idle again.
    mutating func responseSent(now: Instant) {
        guard phase == .responding else { return }
        phase = .idle
        deadline = now + limits.idleTimeout
    }

    /// The decoder refused the request: answered `status` (431 for a head too long, 400 for
    /// anything malformed) unless a response is already under way.
    mutating func malformed(status: Int, message: String, now: Instant) -> Action {
        switch phase {
        case .idle, .head, .body:
            return answer(status, message, now: now)
        case .responding, .closing, .closed:
            return .none
        }
    }

    /// The timer set for ``deadline`` has fired at `now` (it may fire early: then nothing).
    mutating func timerFired(now: Instant) -> Action {
        guard let deadline, now >= deadline else { return .none }
        switch phase {
        case .idle, .closing:
            closed()
            return .close
        case .head:
            return answer(408, "the request's head did not arrive within \(describe(limits.headTimeout))", now: now)
        case .body:
            return answer(408, "the request's body did not arrive within \(describe(limits.bodyTimeout))", now: now)
        case .responding, .closed:
            self.deadline = nil
            return .none
        }
    }

    /// The connection has closed.
    mutating func closed() {
        phase = .closed
        deadline = nil
    }

    private mutating func bodyTooLarge(now: Instant) -> Action {
        answer(413, "the body is larger than \(limits.maxBodyBytes) bytes", now: now)
    }

    private mutating func answer(_ status: Int, _ message: String, now: Instant) -> Action {
        phase = .closing
        deadline = now + limits.closeLinger
        return .answer(status: status, message: message)
    }

    /// `10 s`, or `200 ms` when not whole seconds.
    private func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(seconds) s" : "\(milliseconds) ms"
    }
}
