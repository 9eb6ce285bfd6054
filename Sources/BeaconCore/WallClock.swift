#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
// With the Swift runtime linked statically, `timespec`'s members come from the runtime's shims.
#if canImport(SwiftOverlayShims)
import SwiftOverlayShims
#endif

/// The real-time clock (`CLOCK_REALTIME`) as a `Clock` over ``Timestamp``: what stamps packets
/// read from a radio. Tests use `ManualClock` instead.
public struct WallClock: Clock {
    public typealias Instant = Timestamp
    public typealias Duration = Swift.Duration

    /// Creates the clock.
    public init() {}

    /// Now, in nanoseconds since the Unix epoch.
    public var now: Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(nanosecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    /// One nanosecond.
    public var minimumResolution: Swift.Duration { .nanoseconds(1) }

    /// Sleeps until `deadline` (measured as a span from now on the continuous clock).
    public func sleep(until deadline: Timestamp, tolerance: Swift.Duration? = nil) async throws {
        let delay = deadline - now
        if delay > .zero { try await Task.sleep(for: delay) }
    }
}
