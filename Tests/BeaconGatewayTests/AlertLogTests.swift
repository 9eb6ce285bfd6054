import BeaconControl
import BeaconCore
import Testing

/// The status page's alert log: each event with what every sink did with it, whatever order
/// the pipeline's hand-over and the sinks' confirmations arrive in.
@Suite("AlertLog")
struct AlertLogTests {
    static let beacon = BeaconID("ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:1")!

    static func event(_ second: Int64) -> AlertEvent {
        AlertEvent(
            kind: .delivered, alertID: "lobby-dwell", beacon: beacon, strategy: "time",
            time: Timestamp(nanosecondsSinceEpoch: second * 1_000_000_000))
    }

    @Test("a confirmation before its event (an awake dispatcher took it from the outbox first) is kept for it")
    func confirmationFirst() throws {
        let log = AlertLog(sinks: ["jsonl:-", "hook"])
        let event = Self.event(60)
        log.record(sink: "jsonl:-", key: event.idempotencyKey, .delivered)
        log.record(event)
        let entry = try #require(log.entries().first)
        #expect(entry.deliveries["jsonl:-"] == .some(.delivered))
        #expect(entry.deliveries["hook"] == .some(nil), "the other sink still waits")
        log.record(sink: "hook", key: event.idempotencyKey, .failed("refused"))
        #expect(log.entries().first?.deliveries["hook"] == .some(.failed("refused")))
    }

    @Test("confirmations of events this log never gets (sent before a restart) are forgotten, oldest first")
    func strangersAreBounded() throws {
        let log = AlertLog(sinks: ["jsonl:-"], capacity: 4)
        for second in 0..<10 { log.record(sink: "jsonl:-", key: Self.event(Int64(second)).idempotencyKey, .delivered) }
        // The newest four are still kept; the first six were dropped.
        log.record(Self.event(9))
        log.record(Self.event(2))
        let entries = log.entries()
        #expect(entries.map { $0.deliveries["jsonl:-"] } == [.some(.delivered), .some(nil)])
    }
}
