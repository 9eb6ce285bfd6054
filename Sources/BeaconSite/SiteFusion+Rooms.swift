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
                roomScores[room] = max(roomScores[room], score)
            }
        }
        decideRoom(b, at: time)
        let position = locate(b, cycle: cycle)
        let distance = nearest.isFinite ? Double(nearest) : nil
        let proximity = configuration.proximity.proximity(distance: distance, current: beacons[b].proximity)
        beacons[b].proximity = proximity
        let state = beacons[b]
        return RangedBeacon(
            id: state.id, lastAddress: BluetoothAddress(rawValue: 0), addressCount: 0, seenThisCycle: seen,
            sampleCount: samples, lastRSSI: nil, meanRSSI: nil,
            filteredRSSI: bestRSSI.isFinite ? Double(bestRSSI) : nil, measuredPower: state.measuredPower,
            distance: distance, accuracy: nearestAccuracy.isNaN || distance == nil ? nil : Double(nearestAccuracy),
            proximity: proximity, firstSeen: state.firstSeen, lastSeen: state.lastSeen,
            room: state.room >= 0 ? roomNames[Int(state.room)] : nil, position: position,
            gatewayCount: evidenceScratch.count)
    }

    func decideRoom(_ b: Int, at time: Timestamp) {
        var best: Int32 = -1
        var bestScore: Float = -.infinity
        for (i, score) in roomScores.enumerated() where score > bestScore {
            best = Int32(i)
            bestScore = score
        }
        guard best >= 0 else {
            beacons[b].candidate = -1 // no gateway with a room heard it lately: the room stays as it is
            return
        }
        let current = beacons[b].room
        if current < 0 {
            enterRoom(b, best, at: time)
            return
        }
        guard best != current else {
            beacons[b].candidate = -1
            return
        }
        let currentScore = roomScores[Int(current)].isFinite ? roomScores[Int(current)] : Self.silentRoomScore
        // A lead of the margin, and a real lead (a tie never moves a beacon, even without margin).
        guard Double(bestScore - currentScore) >= configuration.room.margin, bestScore > currentScore else {
            beacons[b].candidate = -1
            return
        }
        if beacons[b].candidate != best {
            beacons[b].candidate = best
            beacons[b].candidateSince = time.nanosecondsSinceEpoch
        }
        if time.nanosecondsSinceEpoch &- beacons[b].candidateSince >= configuration.room.minimumDwell.nanoseconds {
            leaveRoom(b, at: time)
            enterRoom(b, best, at: time)
            statistics.roomChanges += 1
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

    func enterRoom(_ b: Int, _ room: Int32, at time: Timestamp) {
        beacons[b].room = room
        beacons[b].candidate = -1
        update.regionEvents.append(
            RegionEvent(kind: .enter, regionID: roomNames[Int(room)], beacon: beacons[b].id, time: time))
    }

    func leaveRoom(_ b: Int, at time: Timestamp) {
        beacons[b].tracker.reset()
        let room = beacons[b].room
        guard room >= 0 else { return }
        beacons[b].room = -1
        beacons[b].candidate = -1
        update.regionEvents.append(
            RegionEvent(kind: .exit, regionID: roomNames[Int(room)], beacon: beacons[b].id, time: time))
    }
}
