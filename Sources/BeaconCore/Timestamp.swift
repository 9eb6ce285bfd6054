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

    /// Creates a timestamp from microseconds since the Unix epoch (the resolution of btsnoop and
    /// pcap), saturating at ``distantPast`` and ``distantFuture`` (a capture may hold any 64-bit value).
    @inlinable
    public init(microsecondsSinceEpoch: Int64) {
        let (nanoseconds, overflow) = microsecondsSinceEpoch.multipliedReportingOverflow(by: 1_000)
        self.nanosecondsSinceEpoch = overflow ? (microsecondsSinceEpoch < 0 ? .min : .max) : nanoseconds
    }

    /// Creates a timestamp from (possibly fractional) seconds since the Unix epoch, saturating at
    /// ``distantPast`` and ``distantFuture``; not-a-number gives the epoch.
    @inlinable
    public init(secondsSinceEpoch: Double) {
        let nanoseconds = (secondsSinceEpoch * 1e9).rounded()
        if nanoseconds.isNaN {
            self.nanosecondsSinceEpoch = 0
        } else if nanoseconds >= 9.223_372_036_854_775e18 {
            self.nanosecondsSinceEpoch = .max
        } else if nanoseconds <= -9.223_372_036_854_775e18 {
            self.nanosecondsSinceEpoch = .min
        } else {
            self.nanosecondsSinceEpoch = Int64(nanoseconds)
        }
    }

    /// The timestamp `seconds` whole seconds plus `nanoseconds` after the epoch, saturating at
    /// ``distantPast`` and ``distantFuture``.
    @inlinable
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = Timestamp(nanosecondsSinceEpoch: overflow ? (seconds < 0 ? .min : .max) : scaled)
            .advanced(by: .nanoseconds(nanoseconds))
    }

    /// The earliest representable instant (1677-09-21T00:12:43.145224192Z).
    public static let distantPast = Timestamp(nanosecondsSinceEpoch: .min)
    /// The latest representable instant (2262-04-11T23:47:16.854775807Z).
    public static let distantFuture = Timestamp(nanosecondsSinceEpoch: .max)

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

    /// The timestamp `duration` later, saturating at ``distantPast`` and ``distantFuture``: time arithmetic never
    /// traps and never wraps round, whatever a capture, a report or a configuration holds.
    @inlinable
    public func advanced(by duration: Duration) -> Timestamp {
        let step = duration.nanoseconds
        let (sum, overflow) = nanosecondsSinceEpoch.addingReportingOverflow(step)
        return Timestamp(nanosecondsSinceEpoch: overflow ? (step < 0 ? .min : .max) : sum)
    }

    /// The span to `other`, saturating at the bounds of `Int64` nanoseconds (about 292 years).
    @inlinable
    public func duration(to other: Timestamp) -> Duration {
        let (difference, overflow) = other.nanosecondsSinceEpoch.subtractingReportingOverflow(nanosecondsSinceEpoch)
        return .nanoseconds(overflow ? (other.nanosecondsSinceEpoch < nanosecondsSinceEpoch ? .min : .max) : difference)
    }

    @inlinable
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp { lhs.advanced(by: rhs) }

    @inlinable
    public static func - (lhs: Timestamp, rhs: Duration) -> Timestamp {
        let step = rhs.nanoseconds
        // -Int64.min does not exist: step back by its largest negation instead.
        return lhs.advanced(by: .nanoseconds(step == .min ? .max : -step))
    }

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
