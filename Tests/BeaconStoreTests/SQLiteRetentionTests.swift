import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import BeaconStore
import Foundation
import Testing

/// Retention in the state file: a history's removal deletes its row; dead letters older than the
/// cutoff (by their event's time) go, newer ones and every outbox entry stay.
@Suite("SQLite store: retention")
struct SQLiteRetentionTests {
    static let beacon = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1, minor: 1)
    static let t0 = Timestamp(rfc3339: "2026-11-01T09:00:00Z")!

    static func event(_ minor: UInt16, at time: Timestamp, instanceDue: Timestamp? = nil) -> RoutedEvent {
        let beacon = BeaconID.iBeacon(uuidHigh: 1, uuidLow: 2, major: 1, minor: minor)
        return RoutedEvent(
            event: AlertEvent(
                kind: .delivered, alertID: "dwell", beacon: beacon, strategy: "time", time: time,
                scheduledFor: instanceDue ?? time),
            destination: nil)
    }

    @Test("a removed history is gone from the file after reopening; the other stays")
    func historyRemoved() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-retention-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let kept = AlertKey(alertID: "kept", beacon: Self.beacon)
        let gone = AlertKey(alertID: "gone", beacon: Self.beacon)
        do {
            let store = try SQLiteAlertStateStore(path: path)
            try store.apply([
                .putHistory(AlertHistory(key: kept, firstFiringAt: Self.t0, deliveries: 1)),
                .putHistory(AlertHistory(key: gone, firstFiringAt: Self.t0, deliveries: 1)),
            ])
            try store.apply([.removeHistory(gone)])
        }
        #expect(try SQLiteAlertStateStore(path: path).load().history.keys.sorted() == [kept])
    }

    @Test("dead letters whose event happened before the cutoff go, in either store; later ones and the outbox stay")
    func deadLettersDropped() throws {
        let sqlite = try SQLiteAlertStateStore(outbox: OutboxConfiguration(sinks: ["hook"]))
        let memory = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["hook"]))
        // The second happened 40 days on about an instance due at t0 (a reminder, an answer): its
        // own time counts, not the instance's.
        let events = [
            Self.event(1, at: Self.t0), Self.event(2, at: Self.t0 + .seconds(40 * 86_400), instanceDue: Self.t0),
            Self.event(3, at: Self.t0),
        ]
        try sqlite.apply([], emitting: events)
        memory.enqueue(events.map(OutboundEvent.init))
        for outbox in [sqlite as any Outbox, memory] {
            let entries = try outbox.pending(sink: "hook", limit: 10)
            try outbox.deadLetter(entries[0].id, error: "HTTP 500")
            try outbox.deadLetter(entries[1].id, error: "HTTP 500")
            let dropped = try outbox.dropDeadLetters(eventsBefore: Self.t0 + .seconds(30 * 86_400))
            #expect(dropped == 1, "\(type(of: outbox))")
            #expect(try outbox.deadLetters(sink: "hook").map(\.event.key) == [events[1].event.idempotencyKey])
            #expect(try outbox.pending(sink: "hook", limit: 10).map(\.event.key) == [events[2].event.idempotencyKey])
        }
    }

    @Test("an idempotency key's time is read back; a key of another form has none")
    func keyTime() {
        let key = Self.event(1, at: Self.t0).event.idempotencyKey
        #expect(OutboundEvent.time(ofKey: key) == Self.t0)
        #expect(OutboundEvent.time(ofKey: key + "|2") == Self.t0, "a reminder's key")
        #expect(OutboundEvent.time(ofKey: "gateway|hall|offline") == nil)
        #expect(OutboundEvent.time(ofKey: "a|b|c|not-a-number") == nil)
    }
}
