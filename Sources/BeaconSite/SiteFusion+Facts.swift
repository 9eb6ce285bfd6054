import BeaconCore
import BeaconRanging

extension SiteFusion {
    /// Fills `facts` with what the cycle of `update` — the one just fused, handed to
    /// ``advance(to:onUpdate:)``'s callback — tells besides its beacons: the gateways that changed,
    /// the calibration, and with `evidence` each beacon's readings by gateway (a row per beacon of
    /// `update`, in its order). Call it from that callback; the observers then read the values.
    public func describeCycle(_ update: RangingUpdate, into facts: inout SiteCycleFacts, evidence: Bool) {
        facts.cycles = statistics.cycles
        facts.gatewayChanges.removeAll(keepingCapacity: true)
        for g in liveness.changed { facts.gatewayChanges.append(status(ofGateway: g)) }
        facts.calibration = isCalibrating ? calibrationStatus : nil
        facts.hasEvidence = evidence
        let cycle = update.time.nanosecondsSinceEpoch / cycleNanoseconds
        describeSmoothedPositions(update, cycle: cycle, into: &facts)
        guard evidence else { return }
        let width = gatewayCount
        facts.evidence.removeAll(keepingCapacity: true)
        facts.evidence.append(contentsOf: repeatElement(.infinity, count: update.beacons.count * width))
        for (i, beacon) in update.beacons.enumerated() {
            guard let b = beacons.row(of: beacon.id) else { continue }
            beacons.evidence.forEachEvidence(ofBeacon: b, cycle: cycle) { g, rssi in
                facts.evidence[i * width + g] = rssi.map(Float.init) ?? .nan
            }
        }
    }

    /// Fills `facts`' smoothed positions, a slot per beacon of `update`.
    private func describeSmoothedPositions(_ update: RangingUpdate, cycle: Int64, into facts: inout SiteCycleFacts) {
        facts.smoothed.removeAll(keepingCapacity: true)
        guard positioner.gridTracker?.smoother != nil else { return }
        for beacon in update.beacons {
            facts.smoothed.append(
                beacons.row(of: beacon.id).flatMap { b in
                    positioner.smoothedPosition(
                        of: b, cycle: cycle, endingAt: update.time, cycleNanoseconds: cycleNanoseconds,
                        z: beacon.position?.z ?? positioner.tagHeight(onFloor: positionFloor(of: b)))
                })
        }
    }
}
