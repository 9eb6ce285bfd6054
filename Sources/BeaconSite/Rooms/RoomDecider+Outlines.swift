import BeaconCore

extension RoomDecider {
    /// The share of a beacon's position probability a room needs to be its room: a majority.
    static let majority: Float = 0.5
    /// How far another room's share must lead the current room's for it to take over (with the
    /// majority, for the minimum dwell): the shares' hysteresis, as `RoomHysteresis/margin` is the
    /// gateways' rule's.
    static let switchMargin: Float = 0.3

    /// One cycle of the rule for a beacon the grid filter tracks on a site that outlines its
    /// rooms: each room's score is the share of the posterior inside its outline (0–1).
    ///
    /// A beacon without a room takes the room holding the majority; another room takes it over
    /// once it has held the majority for the minimum dwell (the floor's, across floors). While
    /// no room holds the majority (the probability split across a doorway, or lying outside every
    /// outline), the room is shown as unknown and kept for when the evidence returns; with fewer
    /// gateways than ``RoomHysteresis/minimumGateways`` too, and while every gateway of the room
    /// is offline (the gateways' rule's guard: the posterior there rests on the other rooms'
    /// gateways alone). The confidence is the room's share.
    /// - Parameter silence: what the silence of a room's gateways means, asked every cycle for
    ///   the beacon's room (``GatewayLiveness/silence(of:)``: `.offline` only for a room that has
    ///   gateways, all of them offline).
    func decide(
        _ memory: inout RoomMemory, shares: [Float], gateways: Int, now: Int64, silence: (Int) -> RoomSilence
    ) -> RoomStep {
        var step = RoomStep()
        var best = -1
        var bestShare: Float = 0
        for (i, share) in shares.enumerated() where share > bestShare {
            best = i
            bestShare = share
        }
        guard gateways >= rule.minimumGateways, best >= 0 else {
            memory.candidate = -1
            memory.confidence = 0
            show(&memory, unknown: true, step: &step)
            return step
        }
        if memory.room < 0 {
            guard bestShare >= Self.majority else {
                memory.confidence = bestShare
                show(&memory, unknown: true, step: &step)
                return step
            }
            take(&memory, room: Int32(best), scores: shares, step: &step, counted: false)
        } else if best != Int(memory.room), bestShare >= Self.majority,
            bestShare - shares[Int(memory.room)] >= Self.switchMargin
        {
            let across = floorOfRoom[best] != floorOfRoom[Int(memory.room)]
            let dwell = across ? max(rule.minimumDwell, rule.floorMinimumDwell) : rule.minimumDwell
            if memory.candidate != Int32(best) {
                memory.candidate = Int32(best)
                memory.candidateSince = now
            }
            if now &- memory.candidateSince >= dwell.nanoseconds {
                take(&memory, room: Int32(best), scores: shares, step: &step, counted: true)
            }
        } else {
            memory.candidate = -1
        }
        let share = shares[Int(memory.room)]
        // The gateways' rule reads roomScore as dBm: a share there would hold the room against any
        // RSSI should the beacon fall back to that rule; it counts as not heard.
        memory.roomScore = -.infinity
        memory.confidence = share
        step.roomOffline = silence(Int(memory.room)) == .offline
        let unknown = bestShare < Self.majority || Double(share) < rule.minimumConfidence || step.roomOffline
        show(&memory, unknown: unknown, step: &step)
        return step
    }
}
