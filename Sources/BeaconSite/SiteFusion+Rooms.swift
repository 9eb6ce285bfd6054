import BeaconCore
import BeaconRanging

extension SiteFusion {
    /// Fuses one beacon; `nil` when no gateway has fresh evidence of it (its room is left).
    func fuse(beacon b: Int, cycle: Int64, at time: Timestamp) -> RangedBeacon? {
        evidenceScratch.removeAll(keepingCapacity: true)
        var seen = false
        var samples = 0
        for g in 0..<gatewayCount {
            guard let s = newestSlot(beacon: b, gateway: g, cycle: cycle) else { continue }
            evidenceScratch.append(s)
            if slots[s].cycle == cycle && slots[s].seen {
                seen = true
                samples += Int(slots[s].samples)
            }
        }
        guard !evidenceScratch.isEmpty else {
            leaveRoom(b, at: time)
            return nil
        }
        // Loudest and nearest gateways; room scores from the raw means of the last two cycles.
        var bestRSSI: Float = -.infinity
        var nearest: Float = .infinity
        var nearestAccuracy: Float = .nan
        for i in roomScores.indices { roomScores[i] = -.infinity }
        for s in evidenceScratch {
            let slot = slots[s]
            let g = (s / EvidenceSlot.perGateway) % gatewayCount
            if !slot.rssi.isNaN { bestRSSI = max(bestRSSI, slot.rssi) }
            if !slot.distance.isNaN && slot.distance < nearest {
                nearest = slot.distance
                nearestAccuracy = slot.accuracy
            }
            let room = layout.roomOfGateway[g]
            if room >= 0, let score = recentMean(beacon: b, gateway: g, cycle: cycle) {
                // The calibrated receive offset evens out receivers, as a configured rssiOffset does.
                roomScores[room] = max(roomScores[room], score + Float(model.receiveOffsets[g]))
            }
        }
        decideRoom(b, gateways: evidenceScratch.count, at: time)
        let position = beacons[b].unknown ? nil : locate(b, cycle: cycle)
        if let position {
            beacons[b].lastX = Float(position.x)
            beacons[b].lastY = Float(position.y)
        }
        let distance = nearest.isFinite ? Double(nearest) : nil
        let proximity = configuration.proximity.proximity(distance: distance, current: beacons[b].proximity)
        beacons[b].proximity = proximity
        let state = beacons[b]
        let placed = !roomNames.isEmpty
        return RangedBeacon(
            id: state.id, lastAddress: BluetoothAddress(rawValue: 0), addressCount: 0, seenThisCycle: seen,
            sampleCount: samples, lastRSSI: nil, meanRSSI: nil,
            filteredRSSI: bestRSSI.isFinite ? Double(bestRSSI) : nil, measuredPower: state.measuredPower,
            distance: distance, accuracy: nearestAccuracy.isNaN || distance == nil ? nil : Double(nearestAccuracy),
            proximity: proximity, firstSeen: state.firstSeen, lastSeen: state.lastSeen,
            room: state.shown >= 0 ? roomNames[Int(state.shown)] : nil, position: position,
            gatewayCount: evidenceScratch.count,
            roomConfidence: placed && state.room >= 0 ? Double(state.confidence) : (placed ? 0 : nil),
            roomUnknown: state.unknown,
            floor: state.shown >= 0 && state.lastFloor >= 0 ? layout.floors[Int(state.lastFloor)] : nil)
    }

    /// Decides beacon `b`'s room from ``roomScores`` (hysteresis), its confidence, and whether
    /// the room is shown or unknown; `gateways`: gateways with fresh evidence of it.
    func decideRoom(_ b: Int, gateways: Int, at time: Timestamp) {
        guard !roomNames.isEmpty else { return }
        let rule = configuration.room
        var best: Int32 = -1
        var bestScore: Float = -.infinity
        for (i, score) in roomScores.enumerated() where score > bestScore {
            best = Int32(i)
            bestScore = score
        }
        guard best >= 0 || gateways < rule.minimumGateways else {
            // Only records within their grace (no gateway with a room heard it in two cycles):
            // the room stays as it is until the staleness ends the evidence.
            beacons[b].candidate = -1
            show(b, unknown: beacons[b].unknown, at: time)
            return
        }
        var unknown = gateways < rule.minimumGateways || best < 0 || Double(bestScore) < rule.minimumRSSI
        var current = beacons[b].room
        if current < 0 {
            // A beacon without a room takes the best room at once, once the evidence suffices.
            guard !unknown else {
                beacons[b].confidence = 0
                show(b, unknown: true, at: time)
                return
            }
            change(b, to: best, at: time, counted: false)
            current = best
        } else if !unknown {
            unknown = !hysteresis(b, at: time)
            current = beacons[b].room
        }
        let confidence = roomConfidence(of: Int(current), score: beacons[b].roomScore)
        beacons[b].confidence = confidence
        show(b, unknown: unknown || Double(confidence) < rule.minimumConfidence, at: time)
    }

    /// One step of the room rule for a beacon with a room: another room on its floor must lead
    /// by the margin for the minimum dwell, one on another floor by the floor margin for the
    /// floor's dwell. Returns false when every gateway of its room is offline (it cannot be told).
    func hysteresis(_ b: Int, at time: Timestamp) -> Bool {
        let rule = configuration.room
        let now = time.nanosecondsSinceEpoch
        let current = Int(beacons[b].room)
        var reachable = true
        if roomScores[current].isFinite {
            beacons[b].roomScore = roomScores[current]
        } else {
            // None of its gateways heard it lately. From a gateway that reports, that is absence;
            // from gateways that do not report (yet offline or not), it is no evidence: the room
            // keeps its last score.
            switch silence(ofRoom: current, at: now) {
            case .reporting: beacons[b].roomScore = Self.silentRoomScore
            case .quiet: break
            case .offline: reachable = false
            }
            if !beacons[b].roomScore.isFinite { beacons[b].roomScore = Self.silentRoomScore }
        }
        let currentScore = beacons[b].roomScore
        let floor = layout.floorOfRoom[current]
        var same = -1
        var sameScore: Float = -.infinity
        var other = -1
        var otherScore: Float = -.infinity
        for (i, score) in roomScores.enumerated() where i != current {
            if layout.floorOfRoom[i] == floor {
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
            beacons[b].candidate = -1
            return reachable
        }
        if beacons[b].candidate != Int32(target) {
            beacons[b].candidate = Int32(target)
            beacons[b].candidateSince = now
        }
        if now &- beacons[b].candidateSince >= dwell {
            change(b, to: Int32(target), at: time, counted: true)
            return true
        }
        return reachable
    }

    /// What the silence of a room's gateways means.
    enum RoomSilence {
        /// A gateway of the room reports: it did not hear the beacon.
        case reporting
        /// None reports, not all are offline yet.
        case quiet
        /// All are offline.
        case offline
    }

    func silence(ofRoom room: Int, at now: Int64) -> RoomSilence {
        var offline = true
        for g in layout.gatewaysOfRoom[room] {
            if isReporting(g, at: now) { return .reporting }
            if gatewayOnline[g] { offline = false }
        }
        return offline ? .offline : .quiet
    }

    /// The chance that `room` (scoring `score`) is the beacon's: Π Φ(lead / (σ·√2)) over the
    /// other rooms heard, σ the score's spread (``RoomHysteresis/scoreSigma``).
    func roomConfidence(of room: Int, score: Float) -> Float {
        let scale = configuration.room.scoreSigma * 2.0.squareRoot()
        var p = 1.0
        for (i, other) in roomScores.enumerated() where i != room && other.isFinite {
            p *= normalCDF(Double(score - other) / scale)
        }
        return Float(p)
    }

    /// Puts beacon `b` in `room` (hysteresis's state; ``show(_:unknown:at:)`` reports it).
    func change(_ b: Int, to room: Int32, at time: Timestamp, counted: Bool) {
        let floor = Int32(layout.floorOfRoom[Int(room)])
        if counted {
            statistics.roomChanges += 1
            if floor != beacons[b].lastFloor { statistics.floorChanges += 1 }
        }
        beacons[b].room = room
        beacons[b].roomScore = roomScores[Int(room)]
        beacons[b].candidate = -1
        beacons[b].lastFloor = floor
        beacons[b].tracker.reset()
    }

    /// Reports beacon `b`'s room, or unknown: an exit of the room shown before and an entry of
    /// the room shown now, when they differ.
    func show(_ b: Int, unknown: Bool, at time: Timestamp) {
        let shown = unknown ? -1 : beacons[b].room
        beacons[b].unknown = unknown
        if unknown {
            statistics.unknownRooms += 1
            beacons[b].tracker.reset()
        }
        guard shown != beacons[b].shown else { return }
        if beacons[b].shown >= 0 {
            update.regionEvents.append(
                RegionEvent(kind: .exit, regionID: roomNames[Int(beacons[b].shown)], beacon: beacons[b].id, time: time))
        }
        beacons[b].shown = shown
        if shown >= 0 {
            update.regionEvents.append(
                RegionEvent(kind: .enter, regionID: roomNames[Int(shown)], beacon: beacons[b].id, time: time))
        }
    }

    /// The score of the current room when none of its gateways heard the beacon lately, dBm.
    static let silentRoomScore: Float = -105

    /// The mean RSSI of a gateway's sightings of beacon `b` in cycles `cycle − 1` and `cycle`,
    /// weighted by their counts; `nil` when it heard nothing in them.
    @inline(__always)
    func recentMean(beacon b: Int, gateway g: Int, cycle: Int64) -> Float? {
        let base = (b * gatewayCount + g) * EvidenceSlot.perGateway
        var sum: Float = 0
        var count: Float = 0
        for i in 0..<EvidenceSlot.perGateway {
            let slot = slots[base + i]
            guard slot.cycle == cycle || slot.cycle == cycle - 1, slot.samples > 0, !slot.mean.isNaN else { continue }
            sum += Float(slot.samples) * slot.mean
            count += Float(slot.samples)
        }
        return count > 0 ? sum / count : nil
    }

    /// The beacon left the site (no gateway reports it): an exit of its room, and it starts afresh.
    func leaveRoom(_ b: Int, at time: Timestamp) {
        beacons[b].tracker.reset()
        gridTracker?.forget(b)
        beacons[b].room = -1
        beacons[b].candidate = -1
        beacons[b].roomScore = -.infinity
        beacons[b].lastFloor = -1
        beacons[b].unknown = false
        guard beacons[b].shown >= 0 else { return }
        let shown = beacons[b].shown
        beacons[b].shown = -1
        update.regionEvents.append(
            RegionEvent(kind: .exit, regionID: roomNames[Int(shown)], beacon: beacons[b].id, time: time))
    }
}
