import BeaconAlertEngine
import BeaconCore

/// Delivers one sink's outbox: reads the oldest entries, hands them to the sink in order, flushes
/// it, and removes what it confirmed; when the sink refuses, waits with ``RetryBackoff`` and
/// tries again from the first unconfirmed entry. Nothing is removed before it is confirmed, so
/// an event is delivered at least once even across crashes (the outbox is replayed on restart).
///
/// One bad event never blocks the others: an entry that fails permanently
/// (``DeliveryFailure/isPermanent(_:)``) or `maxAttempts` times in a row is moved to the sink's
/// dead letters with its last error (reported as ``Report/deadLettered(event:attempts:error:)``),
/// and the sink goes on with the entries behind it.
///
/// The pipeline never waits for it: the engine's store writes the outbox rows, and the gateway
/// only calls ``notify()``. Time (the backoff) comes from the injected clock. The decisions are
/// ``OutboxDispatcherStateMachine``'s; the actor only performs its actions (outbox, sink, clock).
public actor OutboxDispatcher {
    /// What the dispatcher did, for logs and tests.
    public enum Report: Hashable, Sendable {
        /// `count` entries were confirmed; `backlog` remain.
        case delivered(count: Int, backlog: Int)
        /// The sink refused (`error`); retry `attempt` comes after `delay`.
        case retrying(attempt: Int, delay: Duration, error: String)
        /// The sink's backlog was full: `spilled` more events went to its dead letters without an
        /// attempt (`total` so far); each is then reported as ``deadLettered(event:attempts:error:)``
        /// with 0 attempts.
        case overflow(spilled: Int, total: Int)
        /// The outbox itself could not be read or updated (`error`); retried like a refusal.
        case storageFailed(error: String)
        /// The sink gave up on `event` after `attempts` failed attempts (the last `error`): it is
        /// among the dead letters (`beacond outbox list`).
        case deadLettered(event: OutboundEvent, attempts: Int, error: String)
        /// The notice made of the dead letter reported just before (`deadLetterNotice`) was
        /// written with it, in the same transaction, for the sinks it names.
        case deadLetterNoticed(notice: OutboundNotice)
    }

    /// Attempts at one entry before it goes to the dead letters (a permanent failure sends it at once).
    public static let defaultMaxAttempts = 10

    /// The sink's name in configuration (its key in the outbox).
    public let sinkName: String
    let sink: any AlertSink
    let outbox: any Outbox
    let batchSize: Int
    private let clock: AnyTimestampClock
    private let random: @Sendable () -> Double
    let report: @Sendable (Report) -> Void
    /// Makes the notice that tells the other sinks of a dead letter (the event, its attempts and
    /// last error), written with the move; `nil` for none.
    let deadLetterNotice: (@Sendable (_ event: OutboundEvent, _ attempts: Int, _ error: String) -> OutboundNotice?)?
    private let wakeups: AsyncStream<Void>
    private let wakeup: AsyncStream<Void>.Continuation
    var machine: OutboxDispatcherStateMachine
    /// Ends the current backoff wait early (a finish).
    private var backoffInterrupt: AsyncStream<Void>.Continuation?

    /// Creates a dispatcher for `sink`, reading entries of `sinkName` from `outbox`.
    /// - Parameters:
    ///   - sinkName: the sink's name in the outbox.
    ///   - sink: where entries are delivered.
    ///   - outbox: where the entries wait, durably.
    ///   - backoff: the delays between attempts after a failure.
    ///   - batchSize: entries read from the outbox at a time.
    ///   - maxAttempts: failed attempts at one entry before it goes to the dead letters.
    ///   - clock: the backoff's clock (tests inject a manual one).
    ///   - random: numbers in `0..<1` for the backoff's jitter.
    ///   - report: told of each delivery, refusal and overflow (called on the dispatcher's task).
    ///   - deadLetterNotice: makes the notice of an entry the sink gave up on, written to the
    ///     sinks it names in the same transaction as the entry's move to the dead letters
    ///     (`nil`, the default, or a `nil` notice: none).
    public init(
        sinkName: String, sink: any AlertSink, outbox: any Outbox, backoff: RetryBackoff = RetryBackoff(),
        batchSize: Int = 64, maxAttempts: Int = defaultMaxAttempts, clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        report: @escaping @Sendable (Report) -> Void = { _ in },
        deadLetterNotice: (@Sendable (_ event: OutboundEvent, _ attempts: Int, _ error: String) -> OutboundNotice?)? = nil
    ) {
        self.init(
            sinkName: sinkName, sink: sink, outbox: outbox, backoff: backoff, batchSize: batchSize,
            maxAttempts: maxAttempts, timestampClock: AnyTimestampClock(mapping: clock), random: random, report: report,
            deadLetterNotice: deadLetterNotice)
    }

    /// Creates a dispatcher whose backoff waits on the daemon's clock (`AnyTimestampClock`); the
    /// other parameters are those of the initializer that takes any `Clock`.
    public init(
        sinkName: String, sink: any AlertSink, outbox: any Outbox, backoff: RetryBackoff = RetryBackoff(),
        batchSize: Int = 64, maxAttempts: Int = defaultMaxAttempts, clock: AnyTimestampClock,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        report: @escaping @Sendable (Report) -> Void = { _ in },
        deadLetterNotice: (@Sendable (_ event: OutboundEvent, _ attempts: Int, _ error: String) -> OutboundNotice?)? = nil
    ) {
        self.init(
            sinkName: sinkName, sink: sink, outbox: outbox, backoff: backoff, batchSize: batchSize,
            maxAttempts: maxAttempts, timestampClock: clock, random: random, report: report,
            deadLetterNotice: deadLetterNotice)
    }

    private init(
        sinkName: String, sink: any AlertSink, outbox: any Outbox, backoff: RetryBackoff, batchSize: Int,
        maxAttempts: Int, timestampClock: AnyTimestampClock, random: @escaping @Sendable () -> Double,
        report: @escaping @Sendable (Report) -> Void,
        deadLetterNotice: (@Sendable (_ event: OutboundEvent, _ attempts: Int, _ error: String) -> OutboundNotice?)?
    ) {
        self.deadLetterNotice = deadLetterNotice
        self.sinkName = sinkName
        self.sink = sink
        self.outbox = outbox
        self.batchSize = max(batchSize, 1)
        self.clock = timestampClock
        self.random = random
        self.report = report
        (wakeups, wakeup) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        machine = OutboxDispatcherStateMachine(
            backoff: backoff, maxAttempts: maxAttempts,
            knownOverflow: (try? outbox.overflow(sink: sinkName)) ?? 0,
            reportedSpill: (try? outbox.deadLetters(sink: sinkName).last?.id) ?? 0)
    }

    /// New entries were written: deliver them (never blocks; wakeups coalesce).
    public nonisolated func notify() {
        wakeup.yield()
    }

    /// Asks ``run()`` to make a last attempt at the backlog and return; what is still not
    /// confirmed stays in the outbox for the next start. Interrupts a backoff wait.
    public func finish() {
        perform(machine.finishRequested())
    }

    /// Asks ``run()`` to return once the backlog is empty (retrying as usual until then); a later
    /// ``finish()`` still cuts it short.
    public func finishWhenDrained() {
        perform(machine.drainRequested())
    }

    /// Delivers until ``finish()`` (or cancellation): first whatever the outbox holds (a restart's
    /// replay), then each time ``notify()`` is called.
    public func run() async {
        var iterator = wakeups.makeAsyncIterator()
        var action = machine.start()
        while true {
            switch action {
            case .deliverBacklog:
                if Task.isCancelled {
                    action = machine.cancelled()
                    continue
                }
                checkOverflow()
                if let failure = await deliverBacklog() {
                    action = machine.roundFailed(
                        error: failure.error, attempts: failure.attempts, now: clock.now, unit: random())
                } else {
                    action = machine.roundDelivered()
                }
            case .waitForNotification:
                action = await iterator.next() == nil ? machine.wakeupsEnded() : machine.notified()
            case .sleep(let until, let announcing):
                if let announcing { report(announcing) }
                action = await backOff(until: until) ? machine.backoffElapsed(now: clock.now) : machine.backoffInterrupted()
            case .finish, .none, .wake, .stopWaiting:
                return
            }
        }
    }

    /// Performs a request's action.
    private func perform(_ action: OutboxDispatcherStateMachine.Action) {
        switch action {
        case .wake:
            wakeup.yield()
        case .stopWaiting:
            wakeup.finish()
            backoffInterrupt?.finish()
        case .none, .deliverBacklog, .waitForNotification, .sleep, .finish:
            break
        }
    }

    /// Waits on the clock until `deadline`; false when a finish or a cancellation ended the wait
    /// first. The deadline was fixed (and announced) before: a test that advances a manual clock
    /// once it hears the announcement cannot leave the sleeper waiting for a later time.
    private func backOff(until deadline: Timestamp) async -> Bool {
        let (interrupts, interrupt) = AsyncStream.makeStream(of: Void.self)
        backoffInterrupt = interrupt
        defer { backoffInterrupt = nil }
        let clock = clock
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await clock.sleep(until: deadline)) != nil }
            group.addTask {
                for await _ in interrupts { break }
                return false
            }
            let elapsed = await group.next() ?? false
            group.cancelAll()
            return elapsed
        }
    }

    /// Reports events spilled since the last check, each then as a dead letter, once.
    private func checkOverflow() {
        guard let total = try? outbox.overflow(sink: sinkName), let overflow = machine.overflowCounted(total: total)
        else { return }
        report(overflow)
        guard let letters = try? outbox.deadLetters(sink: sinkName) else { return }
        for spilled in machine.spillRead(letters) { report(spilled) }
    }
}
