import BeaconCore
import BeaconRanging

/// The hub's room stage: each beacon's room, once a cycle, by the gateways' rule on the rooms'
/// scores or, on a site that outlines its rooms, by the grid filter's shares of its posterior
/// (``RoomDecider``), each with the guard of the room's gateways' liveness; and the room changes
/// as region events named after the rooms. It holds the rooms' scores of the beacon being fused,
/// which the evidence stage fills (``EvidenceTable/summarize(beacon:cycle:roomOfGateway:receiveOffsets:roomScores:)``).
struct SiteRooms {
    /// The rooms' names, in layout order (region ids).
    let names: [String]
    /// The room rule.
    let decider: RoomDecider
    /// Each room's gateways (indexes into the layout's gateways).
    let gatewaysOfRoom: [[Int]]
    /// Each room's score for the beacon being fused (−∞: not heard lately); one slot for a site
    /// without rooms.
    var scores: [Float]

    /// The rooms of `layout`, decided by `rule`.
    init(layout: SiteLayout, rule: RoomHysteresis) {
        names = layout.rooms
        decider = RoomDecider(rule: rule, floorOfRoom: layout.floorOfRoom)
        gatewaysOfRoom = layout.gatewaysOfRoom
        scores = Array(repeating: -.infinity, count: max(1, layout.rooms.count))
    }

    /// Whether the site has rooms at all.
    var isEmpty: Bool { names.isEmpty }

    /// One cycle of the gateways' rule on ``scores`` for a beacon heard by `gateways` gateways:
    /// its room is unknown while all the room's gateways are offline (`liveness`).
    func decide(_ memory: inout RoomMemory, gateways: Int, now: Int64, liveness: GatewayLiveness) -> RoomStep {
        decider.decide(&memory, scores: scores, gateways: gateways, now: now) { room in
            liveness.silence(of: gatewaysOfRoom[room])
        }
    }

    /// One cycle of the rule on the posterior's `shares` in the rooms' outlines for a beacon
    /// heard by `gateways` gateways: its room is unknown while all the room's gateways are
    /// offline (`liveness`); a room without gateways is never offline.
    func decide(
        _ memory: inout RoomMemory, shares: [Float], gateways: Int, now: Int64, liveness: GatewayLiveness
    ) -> RoomStep {
        decider.decide(&memory, shares: shares, gateways: gateways, now: now) { room in
            liveness.silence(of: gatewaysOfRoom[room])
        }
    }

    /// Appends what `step` did to `beacon`'s room at `time` to `events`: an exit, an entry.
    func report(_ step: RoomStep, of beacon: BeaconID, at time: Timestamp, into events: inout [RegionEvent]) {
        step.report(beacon, at: time, rooms: names, into: &events)
    }

    /// The beacon left the site: the exit of the room it was shown in, if any, appended to
    /// `events`; its memory starts afresh.
    func leave(_ memory: inout RoomMemory, of beacon: BeaconID, at time: Timestamp, into events: inout [RegionEvent]) {
        let exited = decider.leave(&memory)
        RoomStep.report(beacon, exited: exited, entered: -1, at: time, rooms: names, into: &events)
    }
}
