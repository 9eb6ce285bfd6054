import BeaconCore

/// How long a beacon's state may go without its hooks being called: a promise a
/// ``BeaconAlertStrategyBase`` subclass makes after a step, so that the base skips the steps that
/// would change nothing but the passing of time (issue 30: a beacon that stays the same should
/// cost close to nothing).
///
/// After each step the base asks the subclass's
/// ``BeaconAlertStrategyBase/quietPeriod(after:now:)`` for one. While it lasts, the base only
/// asks ``BeaconAlertStrategyBase/isPresent(_:)`` each cycle and does its own bookkeeping (last
/// seen, the reset after ``StrategyBaseConfiguration/maxTimeBeforeReset``, firing when ready);
/// ``BeaconAlertStrategyBase/updateAlertParameter(_:beacon:now:)`` and
/// ``BeaconAlertStrategyBase/isConditionValid(_:now:)-(Value,_)`` are not called. The period
/// ends — and the cycle is stepped as usual, after
/// ``BeaconAlertStrategyBase/catchUp(_:lastPresent:presentAtLastCycle:)`` has brought the value
/// to where the skipped steps would have left it — at the first cycle at which any of its limits
/// is reached.
///
/// The promise: had the skipped cycles been stepped, the condition would have had the same value
/// at each, and the value would differ from the one `catchUp` makes only in ways no hook reads.
/// A dwell that has not reached its threshold, for example, is quiet until the threshold or
/// until the beacon has been unseen longer than the gap its visit tolerates. Within a period, a
/// beacon not seen this cycle (`seenThisCycle` false) counts as not present without asking
/// `isPresent`: a strategy that returns periods must not count unseen cycles as present.
public struct QuietPeriod: Hashable, Sendable {
    /// The period ends at the first cycle at or after this time (`Timestamp.distantFuture`: no deadline).
    public var until: Timestamp
    /// When set, the period ends at the first cycle at least this long after the beacon's latest
    /// present cycle (the base's last seen).
    public var unseenFor: Duration?
    /// The period ends at the first cycle at which the beacon is present.
    public var endsWhenPresent: Bool
    /// The period ends at the first cycle at which the beacon is not present (unseen, out of
    /// range, or not in the update at all).
    public var endsWhenNotPresent: Bool

    /// Creates a period. With every default it never ends: right only for a state that no cycle,
    /// present or not, changes.
    public init(
        until: Timestamp = .distantFuture, unseenFor: Duration? = nil,
        endsWhenPresent: Bool = false, endsWhenNotPresent: Bool = false
    ) {
        self.until = until
        self.unseenFor = unseenFor
        self.endsWhenPresent = endsWhenPresent
        self.endsWhenNotPresent = endsWhenNotPresent
    }
}
