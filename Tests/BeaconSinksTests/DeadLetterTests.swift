import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import BeaconStore
import Foundation
import GRDB
import Synchronization
import Testing

/// One bad event never blocks its sink: after `maxAttempts` failures, or at once when the failure
/// is permanent, it goes to the dead letters and the sink goes on; nothing is lost.
@Suite("Dead letters: a poison event does not block its sink")
struct DeadLetterTests {
    static let events = (1...3).map { OutboundEvent(key: "alert|b|delivered|\($0)", body: #"{"n":\#($0)}"#) }
    /// Three lifecycle events as the engine would emit them (for the SQLite store's outbox).
    static let routed = (1...3).map { n in
        RoutedEvent(
            event: AlertEvent(
                kind: .delivered, alertID: "welcome", beacon: .iBeacon(uuidHigh: 1, uuidLow: 2, major: 1, minor: UInt16(n)),
                strategy: "time", time: Timestamp(rfc3339: "2025-01-06T09:00:0\(n)Z")!, scheduledFor: nil,
                content: AlertContent(), messages: []),
            destination: nil)
    }
    static let stored = routed.map(OutboundEvent.init)
    static let backoff = RetryBackoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0)

    /// Refuses one event (by key) with a given error; accepts the others.
    final class PoisonSink: AlertSink {
        let poison: String
        let error: SinkError
        let accepted = Mutex<[OutboundEvent]>([])
        init(poison: String, error: SinkError) {
            self.poison = poison
            self.error = error
        }
        var name: String { "poisoned" }
        var confirmsEachDelivery: Bool { true }
        func deliver(_ event: OutboundEvent) async throws {
            if event.key == poison { throw error }
            accepted.withLock { $0.append(event) }
        }
        func flush() async throws {}
    }

    struct Fixture {
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["main"]))
        let sink: PoisonSink
        let clock = ManualClock()
        let recorder = ReportRecorder()
        let dispatcher: OutboxDispatcher

        init(error: SinkError, maxAttempts: Int = 3) {
            sink = PoisonSink(poison: DeadLetterTests.events[0].key, error: error)
            dispatcher = OutboxDispatcher(
                sinkName: "main", sink: sink, outbox: outbox, backoff: DeadLetterTests.backoff, maxAttempts: maxAttempts,
                clock: clock, random: { 0.5 }, report: recorder.report)
        }
    }

    @Test("an event that keeps failing goes to the dead letters after maxAttempts; the events behind it are delivered")
    func afterAttempts() async throws {
        let error = SinkError.http(url: "http://127.0.0.1:9/hook", reason: "connection refused")
        let fixture = Fixture(error: error)
        fixture.outbox.enqueue(Self.events)
        let run = Task { await fixture.dispatcher.run() }
        var reports = fixture.recorder.reports.makeAsyncIterator()
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        fixture.clock.advance(by: .seconds(1))
        #expect(await reports.next()?.retry == .init(attempt: 2, delay: .seconds(2)))
        fixture.clock.advance(by: .seconds(2))
        // The third failure uses up the attempts: the sink gives up on it and goes on.
        #expect(await reports.next() == .deadLettered(event: Self.events[0], attempts: 3, error: "\(error)"))
        #expect(await reports.next() == .delivered(count: 2, backlog: 0))
        #expect(fixture.sink.accepted.withLock { $0 } == Array(Self.events[1...]))
        let dead = try fixture.outbox.deadLetters(sink: "main")
        #expect(dead.map(\.event) == [Self.events[0]])
        #expect(dead.map(\.attempts) == [3])
        #expect(dead.map(\.lastError) == ["\(error)"])
        await fixture.dispatcher.finish()
        await run.value
    }

    @Test(
        "a permanent failure goes to the dead letters at once; 408, 429 and 5xx are retried",
        arguments: [
            (SinkError.httpStatus(url: "http://h/a", status: 400), true),
            (SinkError.httpStatus(url: "http://h/a", status: 404), true),
            (SinkError.invalidURL("not a url at all"), true),
            (SinkError.httpStatus(url: "http://h/a", status: 408), false),
            (SinkError.httpStatus(url: "http://h/a", status: 429), false),
            (SinkError.httpStatus(url: "http://h/a", status: 503), false),
        ])
    func permanent(error: SinkError, isPermanent: Bool) async throws {
        #expect(DeliveryFailure.isPermanent(error) == isPermanent)
        let fixture = Fixture(error: error, maxAttempts: 10)
        fixture.outbox.enqueue(Self.events)
        let run = Task { await fixture.dispatcher.run() }
        var reports = fixture.recorder.reports.makeAsyncIterator()
        if isPermanent {
            #expect(await reports.next() == .deadLettered(event: Self.events[0], attempts: 1, error: "\(error)"))
            #expect(await reports.next() == .delivered(count: 2, backlog: 0))
        } else {
            #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
            #expect(try fixture.outbox.deadLetters(sink: "main").isEmpty)
        }
        await fixture.dispatcher.finish()
        await run.value
    }

    @Test("the notice of a dead letter is written with its move, for the sinks it names, and reported after it")
    func noticeWithTheMove() async throws {
        let error = SinkError.httpStatus(url: "http://h/a", status: 404)
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["main", "log"]))
        let recorder = ReportRecorder()
        let made = Mutex<[String]>([])
        let dispatcher = OutboxDispatcher(
            sinkName: "main", sink: PoisonSink(poison: Self.events[0].key, error: error), outbox: outbox,
            backoff: Self.backoff, clock: ManualClock(), random: { 0.5 }, report: recorder.report,
            deadLetterNotice: { event, attempts, message in
                made.withLock { $0.append("\(event.key) \(attempts) \(message)") }
                return OutboundNotice(key: "notice|\(event.key)", body: #"{"event":"error"}"#, sinks: ["log"])
            })
        try outbox.enqueue([Self.events[0]], sinks: ["main"])
        let run = Task { await dispatcher.run() }
        var reports = recorder.reports.makeAsyncIterator()
        let notice = OutboundNotice(key: "notice|\(Self.events[0].key)", body: #"{"event":"error"}"#, sinks: ["log"])
        #expect(await reports.next() == .deadLettered(event: Self.events[0], attempts: 1, error: "\(error)"))
        #expect(await reports.next() == .deadLetterNoticed(notice: notice))
        #expect(made.withLock { $0 } == ["\(Self.events[0].key) 1 \(error)"])
        #expect(try outbox.deadLetters(sink: "main").map(\.event) == [Self.events[0]])
        #expect(try outbox.pending(sink: "log", limit: 10).map(\.event) == [OutboundEvent(notice)])
        #expect(try outbox.pending(sink: "main", limit: 10).isEmpty)
        await dispatcher.finish()
        await run.value
    }

    @Test("dead letters are kept across a restart, retried at the end of the outbox, or dropped (SQLite)")
    func sqliteDeadLetters() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-dead-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = OutboxConfiguration(sinks: ["hook"])
        do {
            let store = try SQLiteAlertStateStore(path: path, outbox: configuration)
            try store.apply([], emitting: Self.routed)
            let first = try #require(try store.pending(sink: "hook", limit: 1).first)
            #expect(try store.recordFailure(first.id, error: "HTTP 500") == 1)
            #expect(try store.recordFailure(first.id, error: "HTTP 404") == 2)
            try store.deadLetter(first.id, error: "HTTP 404")
            #expect(try store.pending(sink: "hook", limit: 10).map(\.event) == Array(Self.stored[1...]))
        }
        // Reopened: the dead letter is still there, with its attempts and last error.
        let store = try SQLiteAlertStateStore(path: path, outbox: configuration)
        let dead = try store.deadLetters(sink: "hook")
        #expect(dead.map(\.event) == [Self.stored[0]])
        #expect(dead.map(\.attempts) == [2])
        #expect(dead.map(\.lastError) == ["HTTP 404"])
        // Retried: back at the end of the outbox, attempts from zero.
        #expect(try store.retryDeadLetters(sink: "hook", ids: nil) == 1)
        #expect(try store.deadLetters(sink: "hook").isEmpty)
        #expect(try store.pending(sink: "hook", limit: 10).map(\.event) == Array(Self.stored[1...]) + [Self.stored[0]])
        // Dead again, then dropped.
        let again = try #require(try store.pending(sink: "hook", limit: 10).last)
        #expect(try store.recordFailure(again.id, error: "HTTP 410") == 1)
        try store.deadLetter(again.id, error: "HTTP 410")
        #expect(try store.dropDeadLetters(sink: "hook", ids: [999]) == 0)
        #expect(try store.dropDeadLetters(sink: "hook", ids: nil) == 1)
        #expect(try store.deadLetters(sink: "hook").isEmpty)
        #expect(try store.backlog(sink: "hook") == 2)
    }

    @Test("a state file of the previous schema (v3) is upgraded in place and keeps its outbox")
    func upgradesV3() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-v3-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try AlertStateSchema.migrator.migrate(queue, upTo: "v3-strategy-state")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO outbox (sink, eventKey, body, destination) VALUES ('hook', 'k1', '{}', NULL)")
        }
        try queue.close()
        let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: ["hook"]))
        #expect(try store.appliedMigrations().last == "v8-quiet-first-start")
        let entry = try #require(try store.pending(sink: "hook", limit: 10).first)
        #expect(entry.event == OutboundEvent(key: "k1", body: "{}"))
        #expect(try store.recordFailure(entry.id, error: "HTTP 500") == 1)
    }
}
