import BeaconCore

/// The bookkeeping of one beacon in ``BeaconAlertStrategyBase`` (everything in
/// ``BeaconAlertParameter`` but the value, and the beacon's ``QuietPeriod``). Declared outside the
/// generic class on purpose: nested, it would be generic too, and every access would instantiate
/// its metadata at run time.
struct Bookkeeping {
    var actionStatus: ActionStatus = .waitingForAction
    var conditionValid = false
    /// Whether the beacon was present at its latest cycle (stepped or quiet).
    var presentAtLastCycle = false
    /// Updated since the last collection of state changes.
    var changed = true
    /// The ``QuietPeriod``'s limits flags: ``endsWhenPresent``, ``endsWhenNotPresent``.
    var quietEnds: UInt8 = 0
    var lastSeen: Timestamp
    /// The cycle (count of `finishCycle` calls) of the latest update.
    var updatedInCycle: UInt64 = .max
    /// A hash of the state last saved (0: never saved), to skip writing what did not change.
    var savedHash: UInt64 = 0
    /// The end of the current quiet period, ns since the epoch (`.min`: not quiet).
    var quietUntil: Int64 = .min
    /// The quiet period ends this long (ns) after the latest present cycle (`.max`: no limit).
    var quietUnseenFor: Int64 = .max
    /// The time (ns) of the latest cycle, stepped or quiet.
    var lastCycle: Int64 = .min
    /// The time (ns) up to which the value is current: its latest step or catch-up.
    var currentThrough: Int64 = .min

    static let endsWhenPresent: UInt8 = 1
    static let endsWhenNotPresent: UInt8 = 2

    init(lastSeen: Timestamp) {
        self.lastSeen = lastSeen
    }

    /// Whether the quiet period goes on through a cycle at `time` (ns) at which the beacon is
    /// `present` (``lastSeen`` is still the latest present cycle before this one).
    @inline(__always)
    func staysQuiet(present: Bool, at time: Int64) -> Bool {
        guard time < quietUntil else { return false } // `.min` when not quiet
        guard quietEnds & (present ? Self.endsWhenPresent : Self.endsWhenNotPresent) == 0 else { return false }
        // Measured for a present cycle too: a late cycle is a gap even when the beacon is back.
        return time &- lastSeen.nanosecondsSinceEpoch < quietUnseenFor
    }

    /// Notes a present cycle at `now`, or resets a done action once the beacon has been unseen
    /// for `resetAfter` (`maxTimeBeforeReset`).
    @inline(__always)
    mutating func noteSighting(present: Bool, at now: Timestamp, resetAfter: Duration) {
        if present {
            lastSeen = now
        } else if actionStatus == .actionDone, now - lastSeen >= resetAfter {
            actionStatus = .waitingForAction
        }
    }

    /// The end of every step, quiet or not: the reset on an invalid condition when configured
    /// (`resetWhenConditionInvalid`), and the marks of cycle `cycle`.
    @inline(__always)
    mutating func finishStep(present: Bool, cycle: UInt64, resetWhenInvalid: Bool) {
        presentAtLastCycle = present
        if !conditionValid, resetWhenInvalid { actionStatus = .waitingForAction }
        updatedInCycle = cycle
        changed = true
    }

    /// Starts `period` (none when nil) after a step at `time` (ns).
    mutating func startQuiet(_ period: QuietPeriod?, at time: Int64) {
        lastCycle = time
        currentThrough = time
        guard let period else {
            quietUntil = .min
            return
        }
        quietUntil = period.until.nanosecondsSinceEpoch
        quietUnseenFor = period.unseenFor?.nanoseconds ?? .max
        quietEnds =
            (period.endsWhenPresent ? Self.endsWhenPresent : 0) | (period.endsWhenNotPresent ? Self.endsWhenNotPresent : 0)
    }

    /// Whether cycles were skipped since the value was last brought up to date.
    var needsCatchUp: Bool { lastCycle > currentThrough }
}
