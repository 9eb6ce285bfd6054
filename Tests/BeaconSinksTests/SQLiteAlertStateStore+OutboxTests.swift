import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import BeaconStore
import Foundation
import GRDB
import Testing

@Suite("SQLiteAlertStateStore as an outbox")
struct SQLiteAlertStateStoreOutboxTests {
    static let beacon = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1, minor: 2)
    static let firedAt = Timestamp(rfc3339: "2025-01-06T09:00:00Z")!
    static let outbox = OutboxConfiguration(sinks: ["file", "hook"], maxBacklog: 3)

    static func engine(_ store: SQLiteAlertStateStore) throws -> StoredAlertEngine {
        let rule = AlertRule(
            id: "welcome", content: AlertContent(title: "Welcome"), policy: try AlertPolicy(delay: .seconds(600)))
        return try StoredAlertEngine(configuration: try AlertEngineConfiguration(rules: [rule]), store: store)
    }

    static func fire(_ engine: inout StoredAlertEngine) throws -> [RoutedEvent] {
        try engine.fire(StrategyFiring(alertID: "welcome", beacon: beacon, strategy: "time", time: firedAt), now: firedAt)
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("beacond-outbox-\(UUID().uuidString).sqlite").path
    }

    @Test("an engine step's events are written to every sink's outbox as it is stored")
    func stepWritesOutbox() throws {
        let store = try SQLiteAlertStateStore(outbox: Self.outbox)
        var engine = try Self.engine(store)
        let created = try Self.fire(&engine)
        let delivered = try engine.advance(to: Self.firedAt + .seconds(600))
        #expect(created.map(\.event.kind) == [.created])
        #expect(delivered.map(\.event.kind) == [.delivered])
        for sink in Self.outbox.sinks {
            let entries = try store.pending(sink: sink, limit: 10)
            #expect(entries.map(\.event) == (created + delivered).map(OutboundEvent.init))
        }
    }

    @Test("if the outbox cannot be written, the state change is not stored either")
    func atomic() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAlertStateStore(path: path, outbox: Self.outbox)
        var engine = try Self.engine(store)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP TABLE outbox") }
        #expect(throws: AlertEngineError.self) { try Self.fire(&engine) }
        let pending = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pendingAlert") }
        #expect(pending == 0)
    }

    @Test("after a restart the outbox is replayed to the sink and then empty")
    func replayAfterRestart() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected: [OutboundEvent] = []
        do {
            let store = try SQLiteAlertStateStore(path: path, outbox: Self.outbox)
            var engine = try Self.engine(store)
            expected = try Self.fire(&engine).map(OutboundEvent.init)
        }
        let reopened = try SQLiteAlertStateStore(path: path, outbox: Self.outbox)
        let sink = InMemorySink()
        let recorder = ReportRecorder()
        let dispatcher = OutboxDispatcher(
            sinkName: "hook", sink: sink, outbox: reopened, clock: ManualClock(),
            report: recorder.report)
        let run = Task { await dispatcher.run() }
        var reports = recorder.reports.makeAsyncIterator()
        #expect(await reports.next() == .delivered(count: 1, backlog: 0))
        await dispatcher.finish()
        await run.value
        #expect(sink.delivered == expected)
        #expect(try SQLiteAlertStateStore(path: path, outbox: Self.outbox).backlog(sink: "hook") == 0)
        #expect(try reopened.backlog(sink: "file") == 1)
    }

    @Test("a full backlog spills new events to that sink's dead letters, counts them durably, and a retry sends them")
    func overflow() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAlertStateStore(path: path, outbox: Self.outbox)
        let events = (0..<5).map { index in
            RoutedEvent(
                event: AlertEvent(
                    kind: .delivered, alertID: "welcome", beacon: Self.beacon, strategy: "time",
                    time: Self.firedAt + .seconds(index)), destination: nil)
        }
        try store.apply([], emitting: events)
        #expect(try store.backlog(sink: "file") == 3)
        #expect(try store.overflow(sink: "file") == 2)
        let kept = try store.pending(sink: "file", limit: 10)
        #expect(kept.map(\.event) == events.prefix(3).map(OutboundEvent.init))
        try store.remove([kept[0].id])
        try store.apply([], emitting: Array(events.suffix(1)))
        #expect(try store.backlog(sink: "file") == 3)
        #expect(try SQLiteAlertStateStore(path: path, outbox: Self.outbox).overflow(sink: "file") == 2)
        #expect(try store.overflow(sink: "hook") == 3) // still full: the last event is spilled too

        // Nothing is lost: the spilled events wait among the dead letters, never attempted.
        let spilled = try store.deadLetters(sink: "file")
        #expect(spilled.map(\.event) == events.suffix(2).map(OutboundEvent.init))
        #expect(spilled.allSatisfy { $0.attempts == 0 && $0.lastError.hasPrefix("backlog full (maxBacklog 3)") })
        #expect(try store.deadLetters(sink: "hook").map(\.event) == (events.suffix(2) + events.suffix(1)).map(OutboundEvent.init))
        #expect(try store.retryDeadLetters(sink: "file", ids: nil) == 2)
        #expect(try store.pending(sink: "file", limit: 10).map(\.event).suffix(2) == events.suffix(2).map(OutboundEvent.init))
    }
}
