import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import BeaconStore
import Foundation
import GRDB
import Testing

/// The daemon's own notices reach the outbox through the same transaction as what caused them:
/// a cycle's gateway notices with its alert state and events, a dead letter's notice with its move.
@Suite("SQLite store: notices written in one transaction with their cause")
struct SQLiteNoticeTests {
    typealias S = SQLiteAlertStateStoreTests
    static let sinks = ["main", "log", "audit"]
    static let notice = OutboundNotice(
        key: "gateway|hall|gatewayOffline|1", body: #"{"event":"gatewayOffline","gateway":"hall"}"#, sinks: ["log", "audit"])
    static let created = AlertEvent(
        kind: .created, alertID: "lobby-dwell", beacon: S.beacons[0], strategy: "time",
        time: Timestamp(nanosecondsSinceEpoch: 1_736_154_000_000_000_000))

    /// Makes every insert of a gateway notice into the outbox fail, as a full disk would.
    static func refuseNotices(at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuseNotices BEFORE INSERT ON outbox WHEN NEW.eventKey LIKE 'gateway|%'
                    BEGIN SELECT RAISE(ABORT, 'refused'); END
                    """)
        }
    }

    static func keys(_ store: SQLiteAlertStateStore, _ sink: String) throws -> [String] {
        try store.pending(sink: sink, limit: 10).map(\.event.key)
    }

    @Test("a step's events go to every sink and its notices to theirs, with its state")
    func noticesWithTheStep() throws {
        let path = S.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: Self.sinks))
        try store.apply(
            S.sampleChanges(), emitting: [RoutedEvent(event: Self.created, destination: nil)], notices: [Self.notice])
        #expect(try Self.keys(store, "main") == [Self.created.idempotencyKey])
        #expect(try Self.keys(store, "log") == [Self.created.idempotencyKey, Self.notice.key])
        #expect(try Self.keys(store, "audit") == [Self.created.idempotencyKey, Self.notice.key])
        #expect(try store.pending(sink: "log", limit: 10).last?.event.body == Self.notice.body)
        #expect(try store.load().pending.count == S.beacons.count)
    }

    @Test("a step whose notice cannot be written keeps nothing: no state, no event, no notice")
    func noticeRefusedKeepsNothing() throws {
        let path = S.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: Self.sinks))
        try Self.refuseNotices(at: path)
        #expect(throws: (any Error).self) {
            try store.apply(
                S.sampleChanges(), emitting: [RoutedEvent(event: Self.created, destination: nil)], notices: [Self.notice])
        }
        for sink in Self.sinks { #expect(try Self.keys(store, sink).isEmpty) }
        #expect(try store.load().pending.isEmpty)
        #expect(try store.load().history.isEmpty)
    }

    @Test("a dead letter's notice is written with its move; when it cannot be, the entry stays where it was")
    func deadLetterAndNotice() throws {
        let path = S.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: Self.sinks))
        try store.apply([], emitting: [RoutedEvent(event: Self.created, destination: nil)])
        let entry = try #require(try store.pending(sink: "main", limit: 1).first)
        // Refused: neither the move nor the notice.
        try Self.refuseNotices(at: path)
        #expect(throws: (any Error).self) { try store.deadLetter(entry.id, error: "gone", notice: Self.notice) }
        #expect(try Self.keys(store, "main") == [Self.created.idempotencyKey])
        #expect(try store.deadLetters(sink: "main").isEmpty)
        // Accepted: both.
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP TRIGGER refuseNotices") }
        try store.deadLetter(entry.id, error: "gone", notice: Self.notice)
        #expect(try Self.keys(store, "main").isEmpty)
        #expect(try store.deadLetters(sink: "main").map(\.lastError) == ["gone"])
        #expect(try Self.keys(store, "log") == [Self.created.idempotencyKey, Self.notice.key])
    }
}
