/// A point in time: nanoseconds since the Unix epoch (1970-01-01T00:00:00Z), UTC.
///
/// `Timestamp` is the one time type of beacond. Capture timestamps, virtual simulation time and
/// wall-clock time are all expressed in it, and every piece of logic that depends on time takes
/// a `Timestamp` (`now`) as input rather than reading a clock. It conforms to `InstantProtocol`,
/// so it is also the instant of ``ManualClock`` and of the simulator's virtual clock.
///
/// Spans between timestamps are the standard library's `Duration`.
public struct Timestamp: Hashable, Comparable, Sendable, InstantProtocol {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    public var nanosecondsSinceEpoch: Int64

    /// Creates a timestamp from nanoseconds since the Unix epoch.
    @inlinable
    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// Creates a timestamp from microseconds since the Unix epoch (the resolution of btsnoop and pcap).
    @inlinable
    public init(microsecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = microsecondsSinceEpoch &* 1_000
    }

    /// Creates a timestamp from (possibly fractional) seconds since the Unix epoch.
    @inlinable
    public init(secondsSinceEpoch: Double) {
        self.nanosecondsSinceEpoch = Int64((secondsSinceEpoch * 1e9).rounded())
    }

    /// The Unix epoch.
    public static let epoch = Timestamp(nanosecondsSinceEpoch: 0)

    /// Seconds since the Unix epoch, as a floating-point value.
    @inlinable
    public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) / 1e9 }

    /// Whole microseconds since the Unix epoch (rounded towards negative infinity).
    @inlinable
    public var microsecondsSinceEpoch: Int64 {
        let (q, r) = nanosecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000)
        return r < 0 ? q - 1 : q
    }

    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }

    @inlinable
    public func advanced(by duration: Duration) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch &+ duration.nanoseconds)
    }

    @inlinable
    public func duration(to other: Timestamp) -> Duration {
        .nanoseconds(other.nanosecondsSinceEpoch &- nanosecondsSinceEpoch)
    }

    @inlinable
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp { lhs.advanced(by: rhs) }

    @inlinable
    public static func - (lhs: Timestamp, rhs: Duration) -> Timestamp { lhs.advanced(by: .zero - rhs) }

    /// The span from `rhs` to `lhs` (positive when `lhs` is later).
    @inlinable
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration { rhs.duration(to: lhs) }
}

extension Duration {
    /// This duration in whole nanoseconds, saturating at the bounds of `Int64`.
    @inlinable
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return ns &+ attoseconds / 1_000_000_000
    }

    /// This duration in seconds, as a floating-point value.
    @inlinable
    public var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
