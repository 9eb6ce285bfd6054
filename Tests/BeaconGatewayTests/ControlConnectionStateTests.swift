import Testing

@testable import BeaconControl
@testable import BeaconGateway

/// The control connection's limits as a state machine, stepped through tables of
/// `(time, input) → outcome` rows with the time given: nothing sleeps. Limits: a head of 100
/// bytes within 10 s, a body of 1,000 bytes within 30 s, 60 s idle, 2 s linger. Old code: there
/// was no such machine (no time limit at all, a body too large answered only at its end).
@Suite("ControlConnectionState: the connection limits, stepped by the time")
struct ControlConnectionStateTests {
    /// What happens to the connection.
    enum Input {
        case bytes(Int), decoded, head(contentLength: Int?), body(Int), end, responseSent, malformed, timer
    }

    /// What the state machine says.
    enum Outcome: Equatable {
        case passed, dropped, act(ControlConnectionState.Action)
        static let none = Outcome.act(.none)
        static let close = Outcome.act(.close)
        static func answer(_ status: Int) -> Outcome { .act(.answer(status: status, message: "")) }
    }

    static let limits = ControlServerLimits(
        maxHeadBytes: 100, maxBodyBytes: 1000, headTimeout: .seconds(10), bodyTimeout: .seconds(30),
        idleTimeout: .seconds(60), closeLinger: .seconds(2))

    /// Steps a connection opened at 0 through `rows` (time in milliseconds) and checks each
    /// outcome (an answer's status, not its wording).
    static func check(_ rows: [(at: Int, input: Input, expect: Outcome)], sourceLocation: SourceLocation = #_sourceLocation) {
        let start = ContinuousClock.now
        var state = ControlConnectionState(limits: limits, now: start)
        for (index, row) in rows.enumerated() {
            let now = start + .milliseconds(row.at)
            let outcome: Outcome
            switch row.input {
            case .bytes(let count): outcome = state.received(count, now: now) ? .passed : .dropped
            case .decoded: outcome = .act(state.decoded(now: now))
            case .head(let length): outcome = .act(state.headReceived(contentLength: length, now: now))
            case .body(let count): outcome = .act(state.bodyReceived(count, now: now))
            case .end:
                state.requestReceived()
                outcome = .none
            case .responseSent:
                state.responseSent(now: now)
                outcome = .none
            case .malformed: outcome = .act(state.malformed(status: 400, message: "", now: now))
            case .timer: outcome = .act(state.timerFired(now: now))
            }
            var comparable = outcome
            if case .act(.answer(let status, _)) = outcome { comparable = .answer(status) }
            #expect(comparable == row.expect, "row \(index): \(row)", sourceLocation: sourceLocation)
        }
    }

    @Test("a connection with no request is closed quietly at the idle timeout, not before")
    func idle() {
        Self.check([(59_999, .timer, .none), (60_000, .timer, .close), (60_001, .bytes(5), .dropped)])
    }

    @Test("the head's clock starts at its first byte, more bytes do not move it; then 408 and the linger")
    func slowHead() {
        Self.check([
            (55_000, .bytes(10), .passed), (55_000, .decoded, .none),
            (60_000, .timer, .none), // the idle deadline is gone
            (64_000, .bytes(10), .passed), (64_000, .decoded, .none),
            (64_999, .timer, .none), (65_000, .timer, .answer(408)),
            (65_001, .bytes(5), .dropped), // lingering: read and dropped
            (66_999, .timer, .none), (67_000, .timer, .close),
        ])
    }

    @Test("a head still incomplete past 100 bytes is answered 431; one complete within them is not")
    func headSize() {
        Self.check([(0, .bytes(60), .passed), (0, .decoded, .none), (1, .bytes(41), .passed), (1, .decoded, .answer(431))])
        // 150 bytes in one read, the head complete within it: the rest is body.
        Self.check([(0, .bytes(150), .passed), (0, .head(contentLength: 50), .none), (0, .decoded, .none)])
    }

    @Test("a body is answered 413 the moment it is over 1,000 bytes, or announced so; on time, not 408")
    func bodySize() {
        Self.check([
            (0, .bytes(50), .passed), (0, .head(contentLength: nil), .none), (0, .decoded, .none),
            (1, .body(600), .none), (2, .body(400), .none), (3, .body(1), .answer(413)),
        ])
        Self.check([(0, .bytes(50), .passed), (0, .head(contentLength: 1001), .answer(413))])
        Self.check([
            (0, .bytes(50), .passed), (0, .head(contentLength: 1000), .none),
            (29_999, .timer, .none), (30_000, .timer, .answer(408)),
        ])
    }

    @Test("a response in progress has no deadline; once sent, the connection is idle again")
    func responding() {
        Self.check([
            (0, .bytes(50), .passed), (0, .head(contentLength: nil), .none), (1, .end, .none),
            (3_600_000, .timer, .none), (3_600_000, .malformed, .none),
            (3_600_000, .responseSent, .none), (3_659_999, .timer, .none), (3_660_000, .timer, .close),
        ])
    }

    @Test("a malformed request is answered 400 before its response begins")
    func malformed() {
        Self.check([(0, .bytes(10), .passed), (0, .malformed, .answer(400)), (1, .bytes(1), .dropped)])
    }
}
