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
    public func evaluate(_ update: RangingUpdate, into triggers: inout [AlertTrigger]) {
        evaluate(update.beacons, now: update.time, into: &triggers)
    }

    /// Runs one whole cycle ending at `now` over `beacons` (the beacons using this strategy) and
    /// appends a trigger for each beacon that fired.
    public func evaluate(_ beacons: some Sequence<RangedBeacon>, now: Timestamp,
                         into triggers: inout [AlertTrigger]) {
        let key = self.key
        for beacon in beacons where evaluate(beacon: beacon, now: now) {
            triggers.append(AlertTrigger(beacon: beacon.id, strategy: key, time: now))
        }
        finishCycle(now: now) { id in
            triggers.append(AlertTrigger(beacon: id, strategy: key, time: now))
        }
    }
}
