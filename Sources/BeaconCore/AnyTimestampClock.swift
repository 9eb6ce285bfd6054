/// Any clock that reads ``Timestamp``s — ``WallClock`` in the daemon, ``ManualClock`` in tests —
/// behind one concrete type, for long-lived services that tick, stamp and wait.
public struct AnyTimestampClock: Sendable {
    private let read: @Sendable () -> Timestamp
    private let wait: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`.
    public init<C: Clock & Sendable>(_ clock: C) where C.Instant == Timestamp, C.Duration == Duration {
        read = { clock.now }
        wait = { duration in try await clock.sleep(until: clock.now + duration, tolerance: nil) }
    }

    /// The real-time clock.
    public static var wall: AnyTimestampClock { AnyTimestampClock(WallClock()) }

    /// Now.
    public var now: Timestamp { read() }

    /// Waits `duration` on the clock.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await wait(duration)
    }
}
