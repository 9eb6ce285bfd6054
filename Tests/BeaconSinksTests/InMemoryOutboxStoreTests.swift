import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import Foundation
import Testing

@Suite("InMemoryOutboxStore: state and outbox in memory, in the SQLite store's order")
struct InMemoryOutboxStoreTests {
    static let beacon = BeaconID.iBeacon(uuid: UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!, major: 1, minor: 1)
    static let firedAt = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!

    @Test("events applied with the engine's changes wait in every sink's outbox, in order, until removed")
    func eventsReachEachSink() throws {
        let store = InMemoryOutboxStore(outbox: OutboxConfiguration(sinks: ["file", "hook"], maxBacklog: 2))
        let events = (0..<3).map { index in
            RoutedEvent(
                event: AlertEvent(
                    kind: .delivered, alertID: "welcome", beacon: Self.beacon, strategy: "time",
                    time: Self.firedAt + .seconds(index)), destination: nil)
        }
        try store.apply([], emitting: events)
        #expect(try store.outbox.backlog(sink: "file") == 2)
        #expect(try store.outbox.overflow(sink: "hook") == 1)
        #expect(try store.outbox.deadLetters(sink: "hook").map(\.event) == [OutboundEvent(events[2])])
        let waiting = try store.outbox.pending(sink: "hook", limit: 10)
        #expect(waiting.map(\.event) == events.prefix(2).map(OutboundEvent.init))
        try store.outbox.remove([waiting[0].id])
        #expect(try store.outbox.backlog(sink: "hook") == 1)
        #expect(try store.outbox.backlog(sink: "file") == 2)
    }
}
