import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import Logging
import Testing

@testable import BeaconGateway

/// `retention.deadLetters` in the daemon: dead letters older than the limit are dropped on the
/// pipeline's clock, at most every tenth of the limit (between a minute and an hour).
@Suite("Dead letter sweeper")
struct DeadLetterSweeperTests {
    static let t0 = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
    static let day = Duration.seconds(86_400)

    static func event(_ minor: UInt16, at time: Timestamp) -> OutboundEvent {
        OutboundEvent(
            RoutedEvent(
                event: AlertEvent(
                    kind: .delivered, alertID: "dwell", beacon: .iBeacon(uuidHigh: 1, uuidLow: 2, major: 1, minor: minor),
                    strategy: "time", time: time, scheduledFor: time),
                destination: nil))
    }

    @Test("a 30-day limit: swept at the first look, then not again for an hour; what aged meanwhile goes at the next")
    func sweepsOnTheClock() throws {
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["hook"]))
        outbox.enqueue([Self.event(1, at: Self.t0), Self.event(2, at: Self.t0 + .seconds(3600))])
        for entry in try outbox.pending(sink: "hook", limit: 10) { try outbox.deadLetter(entry.id, error: "HTTP 500") }
        let sweeper = DeadLetterSweeper(outbox: outbox, retention: Self.day * 30, logger: Logger(label: "test"))
        #expect(RetentionSweep(limit: Self.day * 30).interval == .seconds(3600))
        #expect(RetentionSweep(limit: .seconds(120)).interval == .seconds(60))
        // 30 days and 30 minutes on: the first letter is past the limit, the second not yet.
        let first = Self.t0 + Self.day * 30 + .seconds(1800)
        sweeper.sweep(at: first)
        #expect(try outbox.deadLetters(sink: "hook").count == 1)
        // 40 minutes later the second is past it too, but the next look is an hour after the first.
        sweeper.sweep(at: first + .seconds(2400))
        #expect(try outbox.deadLetters(sink: "hook").count == 1)
        sweeper.sweep(at: first + .seconds(3600))
        #expect(try outbox.deadLetters(sink: "hook").isEmpty)
        #expect(sweeper.forgotten == 2)
    }
}
