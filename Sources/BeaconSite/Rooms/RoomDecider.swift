import BeaconCore

/// The hub's room rule, alone: from each room's score in a cycle, a beacon's room, with
/// hysteresis, confidence and unknown (``RoomHysteresis``; `Docs/Site.md`, "Rooms"). A pure
/// function of its inputs and the beacon's ``RoomMemory``: no gateways, clocks or events, so it is
/// tested as a table (`RoomDeciderTests`).
///
/// A room's score is its best gateway's mean RSSI over the last two cycles (the caller's), −∞
/// for a room none of whose gateways heard the beacon lately.
struct RoomDecider {
    /// The rule's settings.
    let rule: RoomHysteresis
    /// Each room's floor (index into the layout's floors; -1 for none).
    let floorOfRoom: [Int]

    /// The score a beacon's room keeps while a gateway of the room reports without hearing it,
    /// dBm.
    static let silentRoomScore: Float = -105

    /// One cycle of the rule for a beacon.
    /// - Parameters:
    ///   - memory: the beacon's room state, updated.
    ///   - scores: each room's score this cycle (−∞: not heard lately).
    ///   - gateways: how many gateways have fresh evidence of the beacon.
    ///   - now: the cycle's time, ns.
    ///   - silence: what the silence of a room's gateways means (asked only for the beacon's
    ///     room, when it scores −∞).
    func decide(
        _ memory: inout RoomMemory, scores: [Float], gateways: Int, now: Int64, silence: (Int) -> RoomSilence
    ) -> RoomStep {
        var step = RoomStep()
        var best: Int32 = -1
        var bestScore: Float = -.infinity
        for (i, score) in scores.enumerated() where score > bestScore {
            best = Int32(i)
            bestScore = score
        }
        guard best >= 0 || gateways < rule.minimumGateways else {
            // Only records within their grace (no gateway with a room heard it in two cycles):
            // the room stays as it is until the staleness ends the evidence.
            memory.candidate = -1
            show(&memory, unknown: memory.unknown, step: &step)
            return step
        }
        var unknown = gateways < rule.minimumGateways || best < 0 || Double(bestScore) < rule.minimumRSSI
        if memory.room < 0 {
            // A beacon without a room takes the best room at once, once the evidence suffices.
            guard !unknown else {
                memory.confidence = 0
                show(&memory, unknown: true, step: &step)
                return step
            }
            take(&memory, room: best, scores: scores, step: &step, counted: false)
        } else if !unknown {
            unknown = !hysteresis(&memory, scores: scores, now: now, silence: silence, step: &step)
        }
        let confidence = Self.confidence(of: Int(memory.room), score: memory.roomScore, scores: scores, sigma: rule.scoreSigma)
        memory.confidence = confidence
        show(&memory, unknown: unknown || Double(confidence) < rule.minimumConfidence, step: &step)
        return step
    }

    /// The beacon left the site (no gateway reports it): it starts afresh; returns the room whose
    /// exit to report, -1 for none.
    func leave(_ memory: inout RoomMemory) -> Int32 {
        let shown = memory.shown
        memory = RoomMemory()
        return shown
    }

    /// The chance that `room` (scoring `score`) is the beacon's: Π Φ(lead / (σ·√2)) over the other
    /// rooms heard, σ the score's spread.
    static func confidence(of room: Int, score: Float, scores: [Float], sigma: Double) -> Float {
        let scale = sigma * 2.0.squareRoot()
        var p = 1.0
        for (i, other) in scores.enumerated() where i != room && other.isFinite {
            p *= normalCDF(Double(score - other) / scale)
        }
        return Float(p)
    }

    /// One step for a beacon with a room: another room on its floor must lead by the margin for
    /// the minimum dwell, one on another floor by the floor margin for the floor's dwell. Returns
    /// false when every gateway of its room is offline (it cannot be told).
    private func hysteresis(
        _ memory: inout RoomMemory, scores: [Float], now: Int64, silence: (Int) -> RoomSilence, step: inout RoomStep
    ) -> Bool {
        let current = Int(memory.room)
        var reachable = true
        if scores[current].isFinite {
            memory.roomScore = scores[current]
        } else {
            // None of its gateways heard it lately. From a gateway that reports, that is absence;
            // from gateways that do not report (yet offline or not), it is no evidence: the room
            // keeps its last score.
            switch silence(current) {
            case .reporting: memory.roomScore = Self.silentRoomScore
            case .quiet: break
            case .offline: reachable = false
            }
            if !memory.roomScore.isFinite { memory.roomScore = Self.silentRoomScore }
        }
        let currentScore = memory.roomScore
        let floor = floorOfRoom[current]
        var same = -1
        var sameScore: Float = -.infinity
        var other = -1
        var otherScore: Float = -.infinity
        for (i, score) in scores.enumerated() where i != current {
            if floorOfRoom[i] == floor {
                if score > sameScore { (same, sameScore) = (i, score) }
            } else if score > otherScore {
                (other, otherScore) = (i, score)
            }
        }
        var target = -1
        var dwell = rule.minimumDwell.nanoseconds
        // A lead of the margin, and a real lead (a tie never moves a beacon, even without margin).
        if other >= 0, otherScore > sameScore, otherScore > currentScore,
            Double(otherScore - currentScore) >= max(rule.floorMargin, rule.margin)
        {
            target = other
            dwell = max(dwell, rule.floorMinimumDwell.nanoseconds)
        } else if same >= 0, sameScore > currentScore, Double(sameScore - currentScore) >= rule.margin {
            target = same
        }
        guard target >= 0 else {
            memory.candidate = -1
            return reachable
        }
        if memory.candidate != Int32(target) {
            memory.candidate = Int32(target)
            memory.candidateSince = now
        }
        if now &- memory.candidateSince >= dwell {
            take(&memory, room: Int32(target), scores: scores, step: &step, counted: true)
            return true
        }
        return reachable
    }

    /// Puts the beacon in `room` (its first room, or a change the rule counts).
    func take(_ memory: inout RoomMemory, room: Int32, scores: [Float], step: inout RoomStep, counted: Bool) {
        let floor = Int32(floorOfRoom[Int(room)])
        if counted {
            step.changed = true
            step.changedFloor = floor != memory.lastFloor
        }
        memory.room = room
        memory.roomScore = scores[Int(room)]
        memory.candidate = -1
        memory.lastFloor = floor
        step.restartsTrack = true
    }

    /// Reports the room, or unknown: an exit of the room shown before and an entry of the room
    /// shown now, when they differ.
    func show(_ memory: inout RoomMemory, unknown: Bool, step: inout RoomStep) {
        let shown = unknown ? -1 : memory.room
        memory.unknown = unknown
        if unknown {
            step.unknown = true
            step.restartsTrack = true
        }
        guard shown != memory.shown else { return }
        step.exited = memory.shown
        memory.shown = shown
        step.entered = shown
    }
}
