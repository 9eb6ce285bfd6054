import BeaconCore

extension BeaconAlertStrategy {
    /// Default: ``update(beacon:now:)``, then ``isReadyForAction(_:now:)`` on the beacon's
    /// parameter and, when ready, ``markActionDone(for:now:)``.
    public func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool {
        update(beacon: beacon, now: now)
        guard let parameter = parameter(for: beacon.id), isReadyForAction(parameter, now: now) else {
            return false
        }
        markActionDone(for: beacon.id, now: now)
        return true
    }

    /// Default: ``isConditionValid(_:now:)`` on the beacon's parameter, false when untracked.
    public func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool {
        guard let parameter = parameter(for: id) else { return false }
        return isConditionValid(parameter, now: now)
    }

    /// Runs one whole cycle over every beacon of `update` and appends a trigger for each beacon
    /// that fired (in update order, then the absent ones).
    @inlinable
    public func evaluate(_ update: RangingUpdate, into triggers: inout [AlertTrigger]) {
        evaluate(update.beacons, now: update.time, into: &triggers)
    }

    /// Runs one whole cycle over the beacons of `update` whose identity satisfies `isIncluded`
    /// (an alert's match), without building a filtered copy of the list.
    @inlinable
    public func evaluate(
        _ update: RangingUpdate, matching isIncluded: (BeaconID) -> Bool,
        into triggers: inout [AlertTrigger]
    ) {
        let key = self.key
        let now = update.time
        update.beacons.withUnsafeBufferPointer { beacons in
            for index in beacons.indices where isIncluded(beacons[index].id) {
                if evaluate(beacon: beacons[index], now: now) {
                    triggers.append(AlertTrigger(beacon: beacons[index].id, strategy: key, time: now))
                }
            }
        }
        finishCycle(now: now) { id in
            triggers.append(AlertTrigger(beacon: id, strategy: key, time: now))
        }
    }

    /// Runs one whole cycle ending at `now` over `beacons` (the beacons using this strategy) and
    /// appends a trigger for each beacon that fired. The array type is concrete on purpose: the
    /// loop is then compiled once, specialised, even when called on `any BeaconAlertStrategy`
    /// (unspecialised generic iteration would allocate per element).
    @inlinable
    public func evaluate(
        _ beacons: [RangedBeacon], now: Timestamp,
        into triggers: inout [AlertTrigger]
    ) {
        let key = self.key
        for beacon in beacons where evaluate(beacon: beacon, now: now) {
            triggers.append(AlertTrigger(beacon: beacon.id, strategy: key, time: now))
        }
        finishCycle(now: now) { id in
            triggers.append(AlertTrigger(beacon: id, strategy: key, time: now))
        }
    }
}
