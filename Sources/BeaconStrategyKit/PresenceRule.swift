import BeaconCore

/// How ``BeaconAlertStrategyBase`` may tell whether a beacon is present in a cycle without
/// calling ``BeaconAlertStrategyBase/isPresent(_:)``: a subclass whose `isPresent` is one of these
/// plain rules says so with ``BeaconAlertStrategyBase/presenceRule``, and the base then answers
/// from the beacon's fields in place — for a beacon in a ``QuietPeriod``, the most frequent step
/// of all, nothing is lent and no hook is called.
///
/// A rule must give exactly what the subclass's `isPresent` gives. `QuietPeriodEquivalenceTests`
/// checks the stock rules indirectly: with quiet steps off the base always asks the hook, with
/// them on it follows the rule, and the two runs must agree (a wrong `seenWithin` fails it).
public enum PresenceRule: Hashable, Sendable {
    /// Ask ``BeaconAlertStrategyBase/isPresent(_:)`` (the default: any rule of the subclass's own).
    case hook
    /// Present when heard this cycle (`seenThisCycle`): the base's own `isPresent`.
    case seen
    /// Present when heard this cycle at `proximity` or closer.
    case seenWithin(Proximity)

    /// The rule's answer for the beacon at `beacon`, read in place (not for ``hook``).
    @inline(__always)
    func isPresent(_ beacon: UnsafePointer<RangedBeacon>) -> Bool {
        switch self {
        case .hook, .seen: beacon.pointee.seenThisCycle
        case .seenWithin(let proximity): beacon.pointee.seenThisCycle && beacon.pointee.proximity.isWithin(proximity)
        }
    }
}
