import BeaconCore
import BeaconRanging

extension SiteFusion {
    /// Fuses one beacon; `nil` when no gateway has fresh evidence of it (its room is left).
    func fuse(beacon b: Int, cycle: Int64, at time: Timestamp) -> RangedBeacon? {
        let heard = beacons.evidence.summarize(
            beacon: b, cycle: cycle, roomOfGateway: layout.roomOfGateway, receiveOffsets: positioner.model.receiveOffsets,
            roomScores: &rooms.scores)
        guard heard.gateways > 0 else {
            leaveRoom(b, at: time)
            return nil
        }
        var position: BeaconPosition?
        if positioner.gridTracker?.rooms != nil {
            // Rooms outlined: the grid filter places the beacon first, and where it tracks it, its
            // posterior's share in each outline decides the room.
            position = locate(b, cycle: cycle)
            if positioner.gridTracker?.roomShares(b, roomCount: rooms.names.count) == true {
                // Its room's gateways all offline: unknown, and unplaced, as under the gateways'
                // rule (the other rooms' gateways alone cannot tell where in it the beacon is).
                if decideRoomByShares(b, gateways: heard.gateways, at: time).roomOffline { position = nil }
            } else {
                decideRoom(b, gateways: heard.gateways, at: time)
                if beacons.states[b].rooms.unknown { position = nil }
            }
        } else {
            decideRoom(b, gateways: heard.gateways, at: time)
            position = beacons.states[b].rooms.unknown ? nil : locate(b, cycle: cycle)
        }
        if let position {
            beacons.states[b].lastX = Float(position.x)
            beacons.states[b].lastY = Float(position.y)
        }
        let distance = heard.nearest.isFinite ? Double(heard.nearest) : nil
        let proximity = configuration.proximity.proximity(distance: distance, current: beacons.states[b].proximity)
        beacons.states[b].proximity = proximity
        return beacons.states[b].ranged(
            heard: heard, distance: distance, position: position, roomNames: rooms.names, floors: layout.floors)
    }

    /// Decides beacon `b`'s room by the gateways' rule (``SiteRooms``), and reports and counts
    /// what it did; `gateways`: gateways with fresh evidence of it.
    func decideRoom(_ b: Int, gateways: Int, at time: Timestamp) {
        guard !rooms.isEmpty else { return }
        let now = time.nanosecondsSinceEpoch
        apply(rooms.decide(&beacons.states[b].rooms, gateways: gateways, now: now, liveness: liveness), to: b, at: time)
    }

    /// Decides beacon `b`'s room from the grid filter's shares of its posterior in the rooms'
    /// outlines (``SiteRooms``), and reports and counts it; returns what the rule did.
    func decideRoomByShares(_ b: Int, gateways: Int, at time: Timestamp) -> RoomStep {
        guard !rooms.isEmpty, let shares = positioner.gridTracker?.shares else { return RoomStep() }
        let now = time.nanosecondsSinceEpoch
        let step = rooms.decide(&beacons.states[b].rooms, shares: shares, gateways: gateways, now: now, liveness: liveness)
        apply(step, to: b, at: time)
        return step
    }

    /// Counts and reports what one cycle of the room rule did to beacon `b`.
    private func apply(_ step: RoomStep, to b: Int, at time: Timestamp) {
        statistics.count(step)
        if step.restartsTrack { beacons.states[b].tracker.reset() }
        rooms.report(step, of: beacons.states[b].id, at: time, into: &update.regionEvents)
    }

    /// The beacon left the site (no gateway reports it): an exit of its room, and it starts afresh.
    func leaveRoom(_ b: Int, at time: Timestamp) {
        beacons.states[b].tracker.reset()
        positioner.gridTracker?.forget(b)
        rooms.leave(&beacons.states[b].rooms, of: beacons.states[b].id, at: time, into: &update.regionEvents)
    }
}
