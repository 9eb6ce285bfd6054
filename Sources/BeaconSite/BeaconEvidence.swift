/// What the gateways' evidence of one beacon says at a cycle, summed over the gateways with a
/// fresh record of it (``EvidenceTable/summarize(beacon:cycle:roomOfGateway:receiveOffsets:roomScores:)``):
/// what the hub's fused beacon reports besides its room and position.
struct BeaconEvidence {
    /// Gateways with a record of the beacon no older than the staleness.
    var gateways = 0
    /// Whether any of them heard it in the cycle itself.
    var seen = false
    /// Sightings in the cycle, over those gateways.
    var samples = 0
    /// The loudest filtered RSSI among the records (offset applied), -∞ without one.
    var bestRSSI: Float = -.infinity
    /// The nearest distance a gateway ranged, metres (+∞ without one), and that gateway's accuracy.
    var nearest: Float = .infinity
    var nearestAccuracy: Float = .nan
}

extension EvidenceTable {
    /// Summarizes beacon `b`'s evidence at `cycle`, and fills `roomScores` (one per room, −∞
    /// for a room no gateway of which heard it) with each room's score: the loudest of its
    /// gateways' mean RSSI over the last two cycles, plus the gateway's calibrated receive offset
    /// (which evens out receivers, as a configured `rssiOffset` does).
    /// - Parameters:
    ///   - roomOfGateway: each gateway's room (index into `roomScores`; −1: none).
    ///   - receiveOffsets: each gateway's calibrated receive offset, dB.
    func summarize(
        beacon b: Int, cycle: Int64, roomOfGateway: [Int], receiveOffsets: [Double], roomScores: inout [Float]
    ) -> BeaconEvidence {
        var summary = BeaconEvidence()
        for i in roomScores.indices { roomScores[i] = -.infinity }
        for g in 0..<gatewayCount {
            guard let s = newestSlot(beacon: b, gateway: g, cycle: cycle) else { continue }
            let slot = self[s]
            summary.gateways += 1
            if slot.cycle == cycle && slot.seen {
                summary.seen = true
                summary.samples += Int(slot.samples)
            }
            if !slot.rssi.isNaN { summary.bestRSSI = max(summary.bestRSSI, slot.rssi) }
            if !slot.distance.isNaN && slot.distance < summary.nearest {
                summary.nearest = slot.distance
                summary.nearestAccuracy = slot.accuracy
            }
            let room = roomOfGateway[g]
            if room >= 0, let score = recentMean(beacon: b, gateway: g, cycle: cycle) {
                roomScores[room] = max(roomScores[room], score + Float(receiveOffsets[g]))
            }
        }
        return summary
    }
}
