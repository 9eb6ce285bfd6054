import BeaconCore
import Synchronization

/// A test clock over `ManualClock`: sleeping moves the clock straight to the deadline and
/// records how long the sleep was, so backoff sequences are checked without waiting.
final class AutoAdvancingClock: Clock, Sendable {
    typealias Instant = Timestamp
    typealias Duration = Swift.Duration

    let manual: ManualClock
    private let recorded = Mutex<[Swift.Duration]>([])

    init(start: Timestamp = Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)) {
        manual = ManualClock(start: start)
    }

    var now: Timestamp { manual.now }
    var minimumResolution: Swift.Duration { .nanoseconds(1) }

    /// Every sleep requested so far, in order.
    var sleeps: [Swift.Duration] { recorded.withLock { $0 } }

    func advance(by duration: Swift.Duration) { manual.advance(by: duration) }

    func sleep(until deadline: Timestamp, tolerance: Swift.Duration?) async throws {
        try Task.checkCancellation()
        recorded.withLock { $0.append(deadline - manual.now) }
        manual.advance(to: deadline)
    }
}
