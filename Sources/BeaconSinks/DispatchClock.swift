import BeaconCore

/// The clock an ``OutboxDispatcher`` is given, read as ``Timestamp``s for its state machine:
/// every timer of the dispatcher waits on it, so a test's `ManualClock` drives the backoff.
struct DispatchClock: Sendable {
    private let read: @Sendable () -> Timestamp
    private let wait: @Sendable (Timestamp) async throws -> Void

    /// Wraps any clock: its instants are read as the span since the dispatcher was created,
    /// after the epoch.
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        read = { .epoch + origin.duration(to: clock.now) }
        wait = { deadline in
            try await clock.sleep(until: origin.advanced(by: Timestamp.epoch.duration(to: deadline)), tolerance: nil)
        }
    }

    /// Wraps a clock of ``Timestamp``s (the daemon's), read as it is.
    init(_ clock: AnyTimestampClock) {
        read = { clock.now }
        wait = { deadline in try await clock.sleep(for: deadline - clock.now) }
    }

    /// Now.
    var now: Timestamp { read() }

    /// Waits until `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Timestamp) async throws {
        try await wait(deadline)
    }
}
