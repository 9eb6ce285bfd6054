import BeaconCore
import BeaconSinks
import Testing

@Suite("OutboxDispatcher")
struct OutboxDispatcherTests {
    static let events = (1...3).map { OutboundEvent(key: "alert|b|delivered|\($0)", body: #"{"n":\#($0)}"#) }
    /// 1 s doubling, no jitter: the retries come 1 s, 2 s, 4 s after each refusal.
    static let backoff = RetryBackoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0)

    struct Fixture {
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["main"], maxBacklog: 3))
        let sink = InMemorySink()
        let clock = ManualClock()
        let recorder = ReportRecorder()
        let dispatcher: OutboxDispatcher

        init() {
            dispatcher = OutboxDispatcher(
                sinkName: "main", sink: sink, outbox: outbox, backoff: OutboxDispatcherTests.backoff,
                clock: clock, random: { 0.5 }, report: recorder.report)
        }
    }

    @Test("delivers what the outbox holds at start, in order, flushes, then removes it")
    func replay() async throws {
        let fixture = Fixture()
        fixture.outbox.enqueue(Self.events)
        let run = Task { await fixture.dispatcher.run() }
        var reports = fixture.recorder.reports.makeAsyncIterator()
        #expect(await reports.next() == .delivered(count: 3, backlog: 0))
        #expect(fixture.sink.delivered == Self.events)
        #expect(fixture.sink.flushes == 1)
        #expect(try fixture.outbox.backlog(sink: "main") == 0)
        await fixture.dispatcher.finish()
        await run.value
    }

    @Test("a refusing sink is retried with growing waits on the clock until it accepts; nothing is lost or repeated")
    func retries() async throws {
        let fixture = Fixture()
        fixture.sink.setRefusing(true)
        let run = Task { await fixture.dispatcher.run() }
        fixture.outbox.enqueue(Array(Self.events.prefix(2)))
        fixture.dispatcher.notify()
        var reports = fixture.recorder.reports.makeAsyncIterator()
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        fixture.clock.advance(by: .seconds(1))
        #expect(await reports.next()?.retry == .init(attempt: 2, delay: .seconds(2)))
        fixture.clock.advance(by: .seconds(2))
        #expect(await reports.next()?.retry == .init(attempt: 3, delay: .seconds(4)))
        fixture.sink.setRefusing(false)
        fixture.clock.advance(by: .seconds(4))
        #expect(await reports.next() == .delivered(count: 2, backlog: 0))
        #expect(fixture.sink.delivered == Array(Self.events.prefix(2)))
        #expect(fixture.sink.attempts == 5)

        // After a success the backoff starts again from the first wait.
        fixture.sink.setRefusing(true)
        fixture.outbox.enqueue([Self.events[2]])
        fixture.dispatcher.notify()
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        await fixture.dispatcher.finish()
        await run.value
        #expect(try fixture.outbox.backlog(sink: "main") == 1)
    }

    @Test("events beyond the backlog bound are spilled to the dead letters, counted, and each reported as a dead letter")
    func overflow() async throws {
        let fixture = Fixture()
        fixture.sink.setRefusing(true)
        let spilled = [OutboundEvent(key: "x", body: "{}"), OutboundEvent(key: "y", body: "{}")]
        fixture.outbox.enqueue(Self.events + spilled)
        #expect(try fixture.outbox.backlog(sink: "main") == 3)
        #expect(try fixture.outbox.overflow(sink: "main") == 2)
        let run = Task { await fixture.dispatcher.run() }
        var reports = fixture.recorder.reports.makeAsyncIterator()
        #expect(await reports.next() == .overflow(spilled: 2, total: 2))
        let spillError = OutboxConfiguration(sinks: ["main"], maxBacklog: 3).spillError
        #expect(await reports.next() == .deadLettered(event: spilled[0], attempts: 0, error: spillError))
        #expect(await reports.next() == .deadLettered(event: spilled[1], attempts: 0, error: spillError))
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        await fixture.dispatcher.finish()
        await run.value
    }

    @Test("a restarted dispatcher waits as long as its first entry's failures call for, not from the first wait again")
    func backoffSurvivesRestart() async throws {
        let fixture = Fixture()
        fixture.sink.setRefusing(true)
        fixture.outbox.enqueue(Self.events)
        let first = try #require(try fixture.outbox.pending(sink: "main", limit: 1).first)
        for _ in 1...4 { _ = try fixture.outbox.recordFailure(first.id, error: "HTTP 500") } // a previous run's
        let run = Task { await fixture.dispatcher.run() }
        var reports = fixture.recorder.reports.makeAsyncIterator()
        #expect(await reports.next()?.retry == .init(attempt: 5, delay: .seconds(16)))
        fixture.clock.advance(by: .seconds(16))
        #expect(await reports.next()?.retry == .init(attempt: 6, delay: .seconds(32)))
        await fixture.dispatcher.finish()
        await run.value
    }

    @Test("finish interrupts a backoff wait, makes one last attempt and leaves the rest in the outbox")
    func finish() async throws {
        let fixture = Fixture()
        fixture.sink.setRefusing(true)
        fixture.outbox.enqueue(Self.events)
        let run = Task { await fixture.dispatcher.run() }
        var reports = fixture.recorder.reports.makeAsyncIterator()
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        await fixture.dispatcher.finish()
        await run.value
        #expect(fixture.sink.attempts == 2)
        #expect(try fixture.outbox.pending(sink: "main", limit: 10).map(\.event) == Self.events)
    }
}
