/// Any clock read as ``Timestamp``s — ``WallClock`` in the daemon, ``ManualClock`` in tests, or
/// any `Clock` of `Duration`s mapped onto timestamps — behind one concrete type, for long-lived
/// services that tick, stamp and wait.
public struct AnyTimestampClock: Sendable {
    private let read: @Sendable () -> Timestamp
    private let wait: @Sendable (Timestamp) async throws -> Void

    /// Wraps `clock`, whose instants are timestamps, read as they are.
    public init<C: Clock & Sendable>(_ clock: C) where C.Instant == Timestamp, C.Duration == Duration {
        read = { clock.now }
        wait = { deadline in try await clock.sleep(until: deadline, tolerance: nil) }
    }

    /// Wraps any clock of `Duration`s (`ContinuousClock`, a test's manual clock): its instants
    /// are read as the span since this call, after `origin`; a deadline is waited for at the
    /// instant the same span after this call.
    public init(mapping clock: some Clock<Duration>, origin: Timestamp = .epoch) {
        let start = clock.now
        read = { origin + start.duration(to: clock.now) }
        wait = { deadline in
            try await clock.sleep(until: start.advanced(by: origin.duration(to: deadline)), tolerance: nil)
        }
    }

    /// The real-time clock.
    public static var wall: AnyTimestampClock { AnyTimestampClock(WallClock()) }

    /// Now.
    public var now: Timestamp { read() }

    /// Waits until the clock reads `deadline` (returns at once if it already has).
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Timestamp) async throws {
        try await wait(deadline)
    }

    /// Waits `duration` on the clock.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await wait(now + duration)
    }
}
