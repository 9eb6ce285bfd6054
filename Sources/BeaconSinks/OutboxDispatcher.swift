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
/// only calls ``notify()``. Time (the backoff) comes from the injected clock.
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
    }

    /// Attempts at one entry before it goes to the dead letters (a permanent failure sends it at once).
    public static let defaultMaxAttempts = 10

    /// The sink's name in configuration (its key in the outbox).
    public let sinkName: String
    private let sink: any AlertSink
    private let outbox: any Outbox
    private let backoff: RetryBackoff
    private let batchSize: Int
    private let maxAttempts: Int
    private let clock: any Clock<Duration>
    private let random: @Sendable () -> Double
    private let report: @Sendable (Report) -> Void
    private let wakeups: AsyncStream<Void>
    private let wakeup: AsyncStream<Void>.Continuation
    private var finishing = false
    private var finishingWhenDrained = false
    private var backoffSleep: Task<Void, any Error>?
    private var knownOverflow = 0
    /// The newest dead letter whose spill has been reported.
    private var reportedSpill: Int64 = 0

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
    public init(
        sinkName: String, sink: any AlertSink, outbox: any Outbox, backoff: RetryBackoff = RetryBackoff(),
        batchSize: Int = 64, maxAttempts: Int = defaultMaxAttempts, clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        report: @escaping @Sendable (Report) -> Void = { _ in }
    ) {
        self.sinkName = sinkName
        self.sink = sink
        self.outbox = outbox
        self.backoff = backoff
        self.batchSize = max(batchSize, 1)
        self.maxAttempts = max(maxAttempts, 1)
        self.clock = clock
        self.random = random
        self.report = report
        (wakeups, wakeup) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        knownOverflow = (try? outbox.overflow(sink: sinkName)) ?? 0
        reportedSpill = (try? outbox.deadLetters(sink: sinkName).last?.id) ?? 0
    }

    /// New entries were written: deliver them (never blocks; wakeups coalesce).
    public nonisolated func notify() {
        wakeup.yield()
    }

    /// Asks ``run()`` to make a last attempt at the backlog and return; what is still not
    /// confirmed stays in the outbox for the next start. Interrupts a backoff wait.
    public func finish() {
        finishing = true
        wakeup.finish()
        backoffSleep?.cancel()
    }

    /// Asks ``run()`` to return once the backlog is empty (retrying as usual until then); a later
    /// ``finish()`` still cuts it short.
    public func finishWhenDrained() {
        finishingWhenDrained = true
        wakeup.yield()
    }

    /// Delivers until ``finish()`` (or cancellation): first whatever the outbox holds (a restart's
    /// replay), then each time ``notify()`` is called.
    public func run() async {
        var attempt = 0
        var iterator = wakeups.makeAsyncIterator()
        while !Task.isCancelled {
            checkOverflow()
            if let failure = await deliverBacklog() {
                if finishing { return }
                // The entry's failures are kept in the outbox: a restarted daemon waits as long as
                // the one before it would have, instead of hammering a receiver from 1 s again.
                attempt = max(attempt + 1, failure.attempts)
                let delay = backoff.delay(attempt: attempt, unit: random())
                let (clock, report) = (clock, report)
                let retrying = Report.retrying(attempt: attempt, delay: delay, error: failure.error)
                let sleep = Task { try await Self.sleep(on: clock, for: delay) { report(retrying) } }
                backoffSleep = sleep
                let slept: Void? = try? await withTaskCancellationHandler {
                    try await sleep.value
                } onCancel: {
                    sleep.cancel()
                }
                backoffSleep = nil
                if slept == nil && !finishing { return }
            } else {
                attempt = 0
                if finishing || finishingWhenDrained { return }
                if await iterator.next() == nil && !finishing { return }
            }
        }
    }

    /// Why a delivery stopped: the error, and how many attempts at the entry have failed so far
    /// (0 when the failure was not an entry's, such as a flush or the outbox itself).
    struct Failure {
        var error: String
        var attempts = 0
    }

    /// Delivers batches until the backlog is empty (`nil`) or the sink refuses (the reason).
    func deliverBacklog() async -> Failure? {
        while true {
            let entries: [OutboxEntry]
            do {
                entries = try outbox.pending(sink: sinkName, limit: batchSize)
            } catch {
                report(.storageFailed(error: "\(error)"))
                return Failure(error: "\(error)")
            }
            if entries.isEmpty { return nil }
            var confirmed: [Int64] = []
            var failure: Failure?
            for entry in entries {
                do {
                    try await sink.deliver(entry.event)
                    if sink.confirmsEachDelivery { try outbox.remove([entry.id]) }
                    confirmed.append(entry.id)
                } catch {
                    switch countFailure(entry, error) {
                    case .movedToDeadLetters: continue // the sink goes on with the next entry
                    case .retry(let attempts): failure = Failure(error: "\(error)", attempts: attempts)
                    }
                    break
                }
            }
            if !confirmed.isEmpty {
                do {
                    try await sink.flush()
                    try outbox.remove(confirmed)
                    report(.delivered(count: confirmed.count, backlog: (try? outbox.backlog(sink: sinkName)) ?? 0))
                } catch {
                    return Failure(error: "\(error)")
                }
            }
            if let failure { return failure }
        }
    }

    /// Fixes the deadline, then calls `announce`, then sleeps: a test that advances a manual clock
    /// once it hears the announcement cannot leave the sleeper waiting for a later time.
    private static func sleep<C: Clock<Duration>>(
        on clock: C, for delay: Duration,
        announce: @Sendable () -> Void
    ) async throws {
        let deadline = clock.now.advanced(by: delay)
        announce()
        try await clock.sleep(until: deadline, tolerance: nil)
    }

    /// What became of an entry whose delivery failed.
    private enum FailureOutcome {
        /// It stays first in line, after `attempts` failed attempts in all.
        case retry(attempts: Int)
        /// It is among the dead letters; the sink goes on with the next entry.
        case movedToDeadLetters
    }

    /// Counts a failed attempt at `entry`; moves it to the dead letters when `error` is permanent
    /// or the attempts are used up. When the outbox cannot count or move it, the entry stays
    /// and is retried.
    private func countFailure(_ entry: OutboxEntry, _ error: any Error) -> FailureOutcome {
        let message = "\(error)"
        let attempts: Int
        do { attempts = try outbox.recordFailure(entry.id, error: message) } catch {
            report(.storageFailed(error: "\(error)"))
            return .retry(attempts: 0)
        }
        guard DeliveryFailure.isPermanent(error) || attempts >= maxAttempts else { return .retry(attempts: attempts) }
        do {
            try outbox.deadLetter(entry.id, error: message)
        } catch {
            report(.storageFailed(error: "\(error)"))
            return .retry(attempts: attempts)
        }
        report(.deadLettered(event: entry.event, attempts: attempts, error: message))
        return .movedToDeadLetters
    }

    private func checkOverflow() {
        guard let total = try? outbox.overflow(sink: sinkName), total > knownOverflow else { return }
        report(.overflow(spilled: total - knownOverflow, total: total))
        knownOverflow = total
        // Each spilled event is a dead letter never attempted: reported like one the sink gave up on.
        guard let letters = try? outbox.deadLetters(sink: sinkName) else { return }
        for letter in letters where letter.id > reportedSpill && letter.attempts == 0 {
            report(.deadLettered(event: letter.event, attempts: 0, error: letter.lastError))
        }
        reportedSpill = letters.last?.id ?? reportedSpill
    }
}
