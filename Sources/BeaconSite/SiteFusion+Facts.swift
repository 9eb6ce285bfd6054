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
        guard evidence else { return }
        let width = gatewayCount
        let cycle = update.time.nanosecondsSinceEpoch / cycleNanoseconds
        facts.evidence.removeAll(keepingCapacity: true)
        facts.evidence.append(contentsOf: repeatElement(.infinity, count: update.beacons.count * width))
        for (i, beacon) in update.beacons.enumerated() {
            guard let b = indexByID.slot(of: beacon.id, idAt: { ids[$0] }) else { continue }
            forEachEvidence(ofIndex: b, cycle: cycle) { g, rssi in
                facts.evidence[i * width + g] = rssi.map(Float.init) ?? .nan
            }
        }
    }
}
