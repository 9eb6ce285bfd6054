import BeaconCore
import BeaconRanging

extension SiteFusion {
    /// Fuses one beacon; `nil` when no gateway has fresh evidence of it (its room is left).
    func fuse(beacon b: Int, cycle: Int64, at time: Timestamp) -> RangedBeacon? {
        let heard = evidence.summarize(
            beacon: b, cycle: cycle, roomOfGateway: layout.roomOfGateway, receiveOffsets: positioner.model.receiveOffsets,
            roomScores: &roomScores)
        guard heard.gateways > 0 else {
            leaveRoom(b, at: time)
            return nil
        }
        var position: BeaconPosition?
        if positioner.gridTracker?.rooms != nil {
            // Rooms outlined: the grid filter places the beacon first, and where it tracks it, its
            // posterior's share in each outline decides the room.
            position = locate(b, cycle: cycle)
            if positioner.gridTracker?.roomShares(b, roomCount: roomNames.count) == true {
                decideRoomByShares(b, gateways: heard.gateways, at: time)
            } else {
                decideRoom(b, gateways: heard.gateways, at: time)
                if beacons[b].rooms.unknown { position = nil }
            }
        } else {
            decideRoom(b, gateways: heard.gateways, at: time)
            position = beacons[b].rooms.unknown ? nil : locate(b, cycle: cycle)
        }
        if let position {
            beacons[b].lastX = Float(position.x)
            beacons[b].lastY = Float(position.y)
        }
        let distance = heard.nearest.isFinite ? Double(heard.nearest) : nil
        let proximity = configuration.proximity.proximity(distance: distance, current: beacons[b].proximity)
        beacons[b].proximity = proximity
        let state = beacons[b]
        let rooms = state.rooms
        let placed = !roomNames.isEmpty
        return RangedBeacon(
            id: state.id, lastAddress: BluetoothAddress(rawValue: 0), addressCount: 0, seenThisCycle: heard.seen,
            sampleCount: heard.samples, lastRSSI: nil, meanRSSI: nil,
            filteredRSSI: heard.bestRSSI.isFinite ? Double(heard.bestRSSI) : nil, measuredPower: state.measuredPower,
            distance: distance, accuracy: heard.nearestAccuracy.isNaN || distance == nil ? nil : Double(heard.nearestAccuracy),
            proximity: proximity, firstSeen: state.firstSeen, lastSeen: state.lastSeen,
            room: rooms.shown >= 0 ? roomNames[Int(rooms.shown)] : nil, position: position,
            gatewayCount: heard.gateways,
            roomConfidence: placed && rooms.room >= 0 ? Double(rooms.confidence) : (placed ? 0 : nil),
            roomUnknown: rooms.unknown,
            floor: rooms.shown >= 0 && rooms.lastFloor >= 0 ? layout.floors[Int(rooms.lastFloor)] : nil)
    }

    /// Decides beacon `b`'s room from ``roomScores`` (``RoomDecider``), and reports and counts
    /// what it did; `gateways`: gateways with fresh evidence of it.
    func decideRoom(_ b: Int, gateways: Int, at time: Timestamp) {
        guard !roomNames.isEmpty else { return }
        let now = time.nanosecondsSinceEpoch
        let step = roomDecider.decide(&beacons[b].rooms, scores: roomScores, gateways: gateways, now: now) { room in
            silence(ofRoom: room, at: now)
        }
        apply(step, to: b, at: time)
    }

    /// Decides beacon `b`'s room from the grid filter's shares of its posterior in the rooms'
    /// outlines (``RoomDecider/decide(_:shares:gateways:now:)``), and reports and counts it.
    func decideRoomByShares(_ b: Int, gateways: Int, at time: Timestamp) {
        guard !roomNames.isEmpty, let shares = positioner.gridTracker?.shares else { return }
        let step = roomDecider.decide(&beacons[b].rooms, shares: shares, gateways: gateways, now: time.nanosecondsSinceEpoch)
        apply(step, to: b, at: time)
    }

    /// Counts and reports what one cycle of the room rule did to beacon `b`.
    private func apply(_ step: RoomStep, to b: Int, at time: Timestamp) {
        if step.changed {
            statistics.roomChanges += 1
            if step.changedFloor { statistics.floorChanges += 1 }
        }
        if step.unknown { statistics.unknownRooms += 1 }
        if step.restartsTrack { beacons[b].tracker.reset() }
        report(b, exited: step.exited, entered: step.entered, at: time)
    }

    /// The exit of room `exited` and the entry of room `entered` (-1: none) as region events.
    private func report(_ b: Int, exited: Int32, entered: Int32, at time: Timestamp) {
        if exited >= 0 {
            update.regionEvents.append(
                RegionEvent(kind: .exit, regionID: roomNames[Int(exited)], beacon: beacons[b].id, time: time))
        }
        if entered >= 0 {
            update.regionEvents.append(
                RegionEvent(kind: .enter, regionID: roomNames[Int(entered)], beacon: beacons[b].id, time: time))
        }
    }

    /// What the silence of `room`'s gateways means at `now`.
    func silence(ofRoom room: Int, at now: Int64) -> RoomSilence {
        var offline = true
        for g in layout.gatewaysOfRoom[room] {
            if liveness.isReporting(g, at: now) { return .reporting }
            if liveness.online[g] { offline = false }
        }
        return offline ? .offline : .quiet
    }

    /// The beacon left the site (no gateway reports it): an exit of its room, and it starts afresh.
    func leaveRoom(_ b: Int, at time: Timestamp) {
        beacons[b].tracker.reset()
        positioner.gridTracker?.forget(b)
        report(b, exited: roomDecider.leave(&beacons[b].rooms), entered: -1, at: time)
    }
}
