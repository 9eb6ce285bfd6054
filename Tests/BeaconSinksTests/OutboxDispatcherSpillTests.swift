import BeaconCore
import BeaconSinks
import Testing

/// The state machine's bookkeeping of spills and dead letters, and the shell on the daemon's
/// clock type.
@Suite("OutboxDispatcher spills and clocks")
struct OutboxDispatcherSpillTests {
    static let spilled = (1...3).map { OutboundEvent(key: "spill|\($0)", body: "{}") }

    static func letter(_ id: Int64, attempts: Int) -> DeadLetter {
        DeadLetter(id: id, sink: "main", event: spilled[Int(id) - 1], attempts: attempts, lastError: "full")
    }

    @Test("an overflow is reported once, and each spilled dead letter once; given-up ones are not spills")
    func spillReportedOnce() {
        var machine = OutboxDispatcherStateMachine(backoff: RetryBackoff(), maxAttempts: 10)
        #expect(machine.overflowCounted(total: 0) == nil)
        #expect(machine.overflowCounted(total: 2) == .overflow(spilled: 2, total: 2))
        #expect(machine.overflowCounted(total: 2) == nil)
        let letters = [Self.letter(1, attempts: 3), Self.letter(2, attempts: 0), Self.letter(3, attempts: 0)]
        #expect(
            machine.spillRead(letters) == [
                .deadLettered(event: Self.spilled[1], attempts: 0, error: "full"),
                .deadLettered(event: Self.spilled[2], attempts: 0, error: "full"),
            ])
        #expect(machine.spillRead(letters).isEmpty)
        #expect(machine.overflowCounted(total: 3) == .overflow(spilled: 1, total: 3))
    }

    @Test("spills and dead letters from before the start are not reported again")
    func spillBeforeStart() {
        var machine = OutboxDispatcherStateMachine(backoff: RetryBackoff(), maxAttempts: 10, knownOverflow: 2, reportedSpill: 2)
        #expect(machine.overflowCounted(total: 2) == nil)
        #expect(machine.overflowCounted(total: 3) == .overflow(spilled: 1, total: 3))
        let letters = (1...3).map { Self.letter(Int64($0), attempts: 0) }
        #expect(machine.spillRead(letters) == [.deadLettered(event: Self.spilled[2], attempts: 0, error: "full")])
    }

    @Test(
        "a refused entry is retried until its attempts are used up, or dead-lettered at once when permanent",
        arguments: [
            (1, false, OutboxDispatcherStateMachine.EntryFailureAction.retry), (2, false, .retry), (3, false, .deadLetter),
            (4, false, .deadLetter), (1, true, .deadLetter),
        ])
    func entryFailure(attempts: Int, permanent: Bool, expected: OutboxDispatcherStateMachine.EntryFailureAction) {
        let machine = OutboxDispatcherStateMachine(backoff: RetryBackoff(), maxAttempts: 3)
        #expect(machine.entryFailed(attempts: attempts, permanent: permanent) == expected)
    }

    @Test("given the daemon's AnyTimestampClock, the retry backoff waits on it: a manual clock drives it, nothing sleeps")
    func backoffOnTimestampClock() async throws {
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["main"]))
        let sink = InMemorySink()
        let clock = ManualClock(start: Timestamp.epoch + .seconds(1_000))
        let recorder = ReportRecorder()
        let dispatcher = OutboxDispatcher(
            sinkName: "main", sink: sink, outbox: outbox, backoff: OutboxDispatcherTests.backoff,
            clock: AnyTimestampClock(clock), random: { 0.5 }, report: recorder.report)
        sink.setRefusing(true)
        outbox.enqueue([OutboxDispatcherTests.events[0]])
        let run = Task { await dispatcher.run() }
        var reports = recorder.reports.makeAsyncIterator()
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        sink.setRefusing(false)
        clock.advance(by: .seconds(1))
        #expect(await reports.next() == .delivered(count: 1, backlog: 0))
        #expect(sink.attempts == 2)
        await dispatcher.finish()
        await run.value
    }
}
