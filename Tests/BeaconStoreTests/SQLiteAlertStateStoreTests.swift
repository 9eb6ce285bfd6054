import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import BeaconStore
import Foundation
import GRDB
import Testing

/// The SQLite store keeps the engine's state exactly, across reopening, with a versioned schema.
@Suite("SQLite alert state store")
struct SQLiteAlertStateStoreTests {
    static let beacons: [BeaconID] = [
        .iBeacon(uuidHigh: 0xFFFF_FFFF_FFFF_FFFF, uuidLow: 0x8000_0000_0000_0001, major: 65535, minor: 1),
        .altBeacon(id1High: 0x0123_4567_89AB_CDEF, id1Low: 0xFEDC_BA98_7654_3210, id2: 7, id3: 65535),
        .eddystoneUID(namespaceHigh: 0xEDD1, namespaceLow: 0xEBEA_C04E_5DEF_A017, instance: 0xFFFF_FFFF_FFFF),
    ]

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("beacond-store-\(UUID().uuidString).sqlite").path
    }

    static func sampleChanges() -> [AlertStateChange] {
        beacons.enumerated().flatMap { index, beacon -> [AlertStateChange] in
            let key = AlertKey(alertID: "alert-\(index)", beacon: beacon)
            let base = Timestamp(nanosecondsSinceEpoch: 1_736_154_000_123_456_789 + Int64(index))
            return [
                .putPending(
                    PendingAlert(
                        key: key, strategy: "time", firedAt: base, seriesStart: base + .seconds(600),
                        occurrence: index, dueAt: base + .seconds(3600), attempt: index)),
                .putHistory(
                    AlertHistory(
                        key: key, firstFiringAt: base, lastDeliveredAt: index == 0 ? nil : base,
                        lastDeliveredDue: index == 0 ? nil : base - .seconds(1), deliveries: index,
                        instanceDue: index == 0 ? nil : base - .seconds(1), instanceStrategy: index == 0 ? nil : "time",
                        attempts: index,
                        answer: index == 0
                            ? nil
                            : AlertAnswer(
                                kind: index == 2 ? .dismissed : .cancelled, instanceDue: base - .seconds(1),
                                by: "desk via cli", at: base),
                        suppressedUntil: index == 2 ? .distantFuture : nil,
                        earlierInstanceDues: (0..<index * 8).map { base - .seconds(7200 - $0) }, quietUntilGone: index == 1)),
            ]
        }
    }

    @Test("what is applied is loaded back exactly, after reopening the file")
    func roundTrip() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected = AlertEngineState()
        for change in Self.sampleChanges() { expected.apply(change) }
        try SQLiteAlertStateStore(path: path).apply(Self.sampleChanges())
        let reopened = try SQLiteAlertStateStore(path: path).load()
        #expect(reopened == expected)
        #expect(reopened.pending.count == 3)
    }

    @Test("a v4 state file is upgraded in place: its pending alerts are first deliveries, its histories unanswered")
    func upgradesV4() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try AlertStateSchema.migrator.migrate(queue, upTo: "v4-dead-letters")
        try queue.write { db in
            // beacon kind 0, identity words 1, 2, 3: an iBeacon.
            try db.execute(
                sql: """
                    INSERT INTO pendingAlert VALUES ('a', 0, 1, 2, 3, 'time', 10, 20, 0, 30);
                    INSERT INTO alertHistory VALUES ('a', 0, 1, 2, 3, 10, 15, 14, 1);
                    """)
        }
        try queue.close()
        let state = try SQLiteAlertStateStore(path: path).load()
        let pending = try #require(state.pending.values.first)
        #expect(pending.attempt == 0 && pending.dueAt == Timestamp(nanosecondsSinceEpoch: 30))
        let history = try #require(state.history.values.first)
        #expect(history.deliveries == 1 && history.attempts == 0 && history.answer == nil && history.instanceDue == nil)
        #expect(history.suppressedUntil == nil)
    }

    @Test("a v5 history is upgraded with no earlier instances; a malformed list is refused, naming the table")
    func upgradesV5() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try AlertStateSchema.migrator.migrate(queue, upTo: "v5-answers")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO alertHistory (alertID, beaconKind, beaconHigh, beaconLow, beaconTail, deliveries, instanceDue, attempts)
                    VALUES ('a', 0, 1, 2, 3, 2, 40, 1)
                    """)
        }
        try queue.close()
        let history = try #require(try SQLiteAlertStateStore(path: path).load().history.values.first)
        #expect(history.instanceDue == Timestamp(nanosecondsSinceEpoch: 40) && history.earlierInstanceDues.isEmpty)

        let upgraded = try DatabaseQueue(path: path)
        try upgraded.write { db in try db.execute(sql: "UPDATE alertHistory SET earlierInstances = x'0102030405'") }
        try upgraded.close()
        #expect {
            _ = try SQLiteAlertStateStore(path: path).load()
        } throws: { error in
            "\(error)".contains("alertHistory") && "\(error)".contains("5 bytes")
        }
    }

    @Test("removing and replacing rows")
    func removeAndReplace() throws {
        let store = try SQLiteAlertStateStore()
        try store.apply(Self.sampleChanges())
        let key = AlertKey(alertID: "alert-1", beacon: Self.beacons[1])
        var moved = try #require(try store.load().pending[key])
        moved.dueAt = moved.dueAt + .seconds(60)
        try store.apply([.removePending(AlertKey(alertID: "alert-0", beacon: Self.beacons[0])), .putPending(moved)])
        let state = try store.load()
        #expect(state.pending.keys.sorted() == [key, AlertKey(alertID: "alert-2", beacon: Self.beacons[2])])
        #expect(state.pending[key] == moved)
    }

    @Test("a strategy's saved state is removed by alert, part and beacon, or for a whole alert")
    func strategyStateRemoval() throws {
        let store = try SQLiteAlertStateStore()
        func key(_ alert: String, _ part: String, _ beacon: Int) -> SavedStrategyState.Key {
            SavedStrategyState.Key(alertID: alert, part: part, beacon: Self.beacons[beacon])
        }
        let keys = [
            key("dwell", "entry", 0), key("dwell", "dwell", 0), key("dwell", "entry", 1), key("crowd", "entry", 0),
        ]
        try store.apply(keys.map { .putStrategyState(SavedStrategyState(key: $0, strategy: "time", state: [1, 2, 3])) })
        try store.apply([.removeStrategyState(key("dwell", "entry", 0))])
        #expect(try store.load().strategyStates.keys.sorted() == [keys[1], keys[2], keys[3]].sorted())
        try store.apply([.removeStrategyStates(alertID: "dwell")])
        #expect(try store.load().strategyStates.keys.sorted() == [keys[3]])
    }

    @Test("a batch is one transaction: a failing batch leaves nothing behind")
    func atomicBatch() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAlertStateStore(path: path)
        // Sabotage the history table so the batch's second change fails after its first succeeded.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP TABLE alertHistory") }
        #expect(throws: (any Error).self) { try store.apply(Self.sampleChanges()) }
        let pending = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pendingAlert") }
        #expect(pending == 0)
    }

    @Test("the schema is versioned by migrations")
    func migrations() throws {
        let store = try SQLiteAlertStateStore()
        #expect(
            try store.appliedMigrations() == [
                "v1-engine-state", "v2-outbox", "v3-strategy-state", "v4-dead-letters", "v5-answers",
                "v6-earlier-instances", "v7-latency-origin", "v8-quiet-first-start",
            ])
        #expect(AlertStateSchema.version == 8)
    }

    @Test("a delivered alert's latency origin and alert id stay with it in the outbox, a dead letter and its retry")
    func latencyOriginKept() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let origin = Timestamp(nanosecondsSinceEpoch: 1_736_154_000_123_456_789)
        let delivered = AlertEvent(
            kind: .delivered, alertID: "lobby-dwell", beacon: Self.beacons[0], strategy: "time", time: origin + .seconds(1),
            scheduledFor: origin + .seconds(1))
        let created = AlertEvent(
            kind: .created, alertID: "lobby-dwell", beacon: Self.beacons[0], strategy: "time", time: origin)
        do {
            let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: ["main"]))
            try store.apply(
                [],
                emitting: [
                    RoutedEvent(event: created, destination: nil),
                    RoutedEvent(event: delivered, destination: nil, origin: origin),
                ])
        }
        let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: ["main"]))
        let entries = try store.pending(sink: "main", limit: 10)
        #expect(entries.map(\.event.origin) == [nil, origin])
        #expect(entries.map(\.event.alertID) == [nil, "lobby-dwell"])
        try store.deadLetter(entries[1].id, error: "refused")
        #expect(try store.deadLetters(sink: "main").map(\.event.origin) == [origin])
        #expect(try store.retryDeadLetters(sink: "main", ids: nil) == 1)
        let retried = try store.pending(sink: "main", limit: 10).last?.event
        #expect(retried?.origin == origin)
        #expect(retried?.alertID == "lobby-dwell")
    }

    @Test("a database from a newer version is refused")
    func newerSchema() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try SQLiteAlertStateStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2-from-the-future')") }
        #expect(throws: AlertStoreError.schemaTooNew(path: path, unknownMigrations: ["v2-from-the-future"])) {
            try SQLiteAlertStateStore(path: path)
        }
    }

    @Test("an engine restarted on the same file delivers what fell due, once")
    func engineRestart() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try AlertEngineConfiguration(rules: [
            AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), repeat: .hourly))
        ])
        let t0 = Timestamp(rfc3339: "2025-01-06T09:00:00Z")!
        do {
            var engine = try StoredAlertEngine(configuration: configuration, store: try SQLiteAlertStateStore(path: path))
            _ = try engine.fire(StrategyFiring(alertID: "a", beacon: Self.beacons[2], strategy: "time", time: t0), now: t0)
        }
        var second = try StoredAlertEngine(configuration: configuration, store: try SQLiteAlertStateStore(path: path))
        let events = try second.advance(to: Timestamp(rfc3339: "2025-01-06T09:10:00Z")!)
        #expect(events.map(\.event.kind) == [.delivered, .created])
        #expect(events.first?.event.beacon == Self.beacons[2])
        var third = try StoredAlertEngine(configuration: configuration, store: try SQLiteAlertStateStore(path: path))
        #expect(try third.advance(to: Timestamp(rfc3339: "2025-01-06T09:10:00Z")!).isEmpty)
        #expect(third.nextDeadline == Timestamp(rfc3339: "2025-01-06T10:10:00Z"))
    }
}
