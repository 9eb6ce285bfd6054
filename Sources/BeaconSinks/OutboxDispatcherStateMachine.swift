import BeaconCore

/// The decisions of an ``OutboxDispatcher``, in swift-nio's state-machine style: a value that
/// reads no clock and does no I/O. Each event (the shell's run loop, a request, a round's outcome,
/// the time read when a wait ends) moves it to its next state and returns the one ``Action`` the
/// shell performs next.
///
/// A round delivers the backlog until it is empty or the sink refuses; after a refusal the
/// machine backs off until a deadline fixed from `now`, then starts another round. Draining
/// (``drainRequested()``) ends the machine once a round empties the backlog; finishing
/// (``finishRequested()``) interrupts a wait, allows one last round, and ends.
public struct OutboxDispatcherStateMachine: Sendable {
    /// How the dispatcher is to end.
    public enum Ending: Hashable, Sendable {
        /// Not yet: it runs until asked to stop.
        case none
        /// Draining: it ends once a round leaves the backlog empty (retrying as usual until then).
        case whenDrained
        /// Finishing: one last round (waits are interrupted), then it ends.
        case afterLastAttempt
    }

    /// Where the dispatcher stands.
    public enum State: Hashable, Sendable {
        /// ``OutboxDispatcher/run()`` has not started.
        case initial(Ending)
        /// The backlog was empty: waiting for a notification.
        case idle(Ending)
        /// A round is delivering the backlog; `attempt` rounds failed in a row before it.
        case delivering(attempt: Int, Ending)
        /// Waiting until `until` before retry `attempt`.
        case backingOff(until: Timestamp, attempt: Int, Ending)
        /// ``OutboxDispatcher/run()`` returns (or has returned).
        case finished
    }

    /// What the shell does next.
    public enum Action: Hashable, Sendable {
        /// Nothing.
        case none
        /// Deliver the backlog in a round; report its outcome (``roundDelivered()`` or ``roundFailed(error:attempts:now:unit:)``).
        case deliverBacklog
        /// Wait for a notification (``notified()``, or ``wakeupsEnded()`` when there will be none).
        case waitForNotification
        /// Report `announcing` (if any), then wait on the clock until `until` (``backoffElapsed(now:)``)
        /// unless interrupted (``backoffInterrupted()``).
        case sleep(until: Timestamp, announcing: OutboxDispatcher.Report?)
        /// Wake the waiting loop (a drain request).
        case wake
        /// End the notifications and interrupt a backoff wait (a finish request).
        case stopWaiting
        /// Return from the run loop.
        case finish
    }

    /// What becomes of an entry the sink refused.
    public enum EntryFailureAction: Hashable, Sendable {
        /// It stays first in line and the round stops.
        case retry
        /// It goes to the dead letters and the round goes on with the next entry.
        case deadLetter
    }

    /// The current state.
    public private(set) var state: State = .initial(.none)
    /// Events spilled so far that have been reported.
    public internal(set) var knownOverflow: Int
    /// The newest dead letter whose spill has been reported.
    public internal(set) var reportedSpill: Int64
    private let backoff: RetryBackoff
    private let maxAttempts: Int

    /// Creates a machine in ``State/initial(_:)``.
    /// - Parameters:
    ///   - backoff: the waits between rounds after a refusal.
    ///   - maxAttempts: failed attempts at one entry before it goes to the dead letters.
    ///   - knownOverflow: the outbox's overflow count at start (spills before it are not reported).
    ///   - reportedSpill: the newest dead letter at start (older ones are not reported).
    public init(backoff: RetryBackoff, maxAttempts: Int, knownOverflow: Int = 0, reportedSpill: Int64 = 0) {
        self.backoff = backoff
        self.maxAttempts = max(maxAttempts, 1)
        self.knownOverflow = knownOverflow
        self.reportedSpill = reportedSpill
    }

    /// The run loop starts: a first round (a restart's replay).
    public mutating func start() -> Action {
        guard case .initial(let ending) = state else { return .none }
        state = .delivering(attempt: 0, ending)
        return .deliverBacklog
    }

    /// A notification arrived while idle: another round.
    public mutating func notified() -> Action {
        guard case .idle(let ending) = state else { return .none }
        state = .delivering(attempt: 0, ending)
        return .deliverBacklog
    }

    /// The notifications ended (a finish, or the task was cancelled) while idle.
    public mutating func wakeupsEnded() -> Action {
        guard case .idle(let ending) = state else { return .none }
        if ending == .afterLastAttempt {
            state = .delivering(attempt: 0, ending)
            return .deliverBacklog
        }
        state = .finished
        return .finish
    }

    /// The round left the backlog empty.
    public mutating func roundDelivered() -> Action {
        guard case .delivering(_, let ending) = state else { return .none }
        if ending != .none {
            state = .finished
            return .finish
        }
        state = .idle(ending)
        return .waitForNotification
    }

    /// The round stopped on `error` at `now`; the first entry has failed `attempts` times in all
    /// (0 when the failure was not an entry's). `unit`, in `0..<1`, is the backoff's jitter.
    public mutating func roundFailed(error: String, attempts: Int, now: Timestamp, unit: Double) -> Action {
        guard case .delivering(let previous, let ending) = state else { return .none }
        if ending == .afterLastAttempt {
            state = .finished
            return .finish
        }
        // The entry's failures are kept in the outbox: a restarted daemon waits as long as the one
        // before it would have, instead of hammering a receiver from the first wait again.
        let attempt = max(previous + 1, attempts)
        let delay = backoff.delay(attempt: attempt, unit: unit)
        let until = now + delay
        state = .backingOff(until: until, attempt: attempt, ending)
        return .sleep(until: until, announcing: .retrying(attempt: attempt, delay: delay, error: error))
    }

    /// The backoff wait ended at `now`: the retry round, or (woken early) the rest of the wait.
    public mutating func backoffElapsed(now: Timestamp) -> Action {
        guard case .backingOff(let until, let attempt, let ending) = state else { return .none }
        // Woken early (a wall clock set back): the rest of the wait, unless a finish cut it short.
        if now < until && ending != .afterLastAttempt { return .sleep(until: until, announcing: nil) }
        state = .delivering(attempt: attempt, ending)
        return .deliverBacklog
    }

    /// The backoff wait was interrupted: by a finish (its last round) or a cancellation (the end).
    public mutating func backoffInterrupted() -> Action {
        guard case .backingOff(_, let attempt, let ending) = state else { return .none }
        if ending == .afterLastAttempt {
            state = .delivering(attempt: attempt, ending)
            return .deliverBacklog
        }
        state = .finished
        return .finish
    }

    /// The run loop's task was cancelled: the end, whatever the state.
    public mutating func cancelled() -> Action {
        state = .finished
        return .finish
    }

    /// ``OutboxDispatcher/finishWhenDrained()``: end once the backlog is empty (a finish still wins).
    public mutating func drainRequested() -> Action {
        state = state.ending(.whenDrained)
        return .wake
    }

    /// ``OutboxDispatcher/finish()``: one last round, then the end.
    public mutating func finishRequested() -> Action {
        state = state.ending(.afterLastAttempt)
        return .stopWaiting
    }

    /// The sink refused an entry for the `attempts`th time (`permanent`: it never will accept it).
    public func entryFailed(attempts: Int, permanent: Bool) -> EntryFailureAction {
        permanent || attempts >= maxAttempts ? .deadLetter : .retry
    }
}

extension OutboxDispatcherStateMachine.State {
    /// The same state with `ending`, unless it already ends at least as soon.
    fileprivate func ending(_ ending: OutboxDispatcherStateMachine.Ending) -> Self {
        func merged(_ current: OutboxDispatcherStateMachine.Ending) -> OutboxDispatcherStateMachine.Ending {
            current == .afterLastAttempt ? current : ending
        }
        switch self {
        case .initial(let current): return .initial(merged(current))
        case .idle(let current): return .idle(merged(current))
        case .delivering(let attempt, let current): return .delivering(attempt: attempt, merged(current))
        case .backingOff(let until, let attempt, let current):
            return .backingOff(until: until, attempt: attempt, merged(current))
        case .finished: return .finished
        }
    }
}
