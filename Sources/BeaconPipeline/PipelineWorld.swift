import BeaconAlertEngine
import BeaconCore

/// The live state the engine's conditions look at (`scheduleCondition`, `deliverWhen`), kept by
/// the decision stage from each cycle — only when some alert has a condition, so that a pipeline
/// without any pays nothing for it.
struct PipelineWorld: AlertWorld {
    private var beacons: [BeaconID: RangedBeacon] = [:]
    private var occupancy: [String: Int] = [:]
    private var regions: [BeaconID: Set<String>] = [:]
    /// The latest post of each event: for every beacon (`nil` key) or for one.
    private var posted: [String: [BeaconID?: Timestamp]] = [:]

    /// Takes the beacons of a cycle (every tracked one), and its region entries and exits.
    mutating func take(_ update: RangingUpdate) {
        beacons.removeAll(keepingCapacity: true)
        occupancy.removeAll(keepingCapacity: true)
        for beacon in update.beacons {
            beacons[beacon.id] = beacon
            if let room = beacon.room, !beacon.roomUnknown { occupancy[room, default: 0] += 1 }
        }
        for event in update.regionEvents {
            if event.kind == .exit {
                regions[event.beacon]?.remove(event.regionID)
            } else {
                regions[event.beacon, default: []].insert(event.regionID)
            }
        }
        for id in update.evicted { regions[id] = nil }
    }

    /// Remembers a posted event.
    mutating func post(_ name: String, beacon: BeaconID?, at time: Timestamp) {
        posted[name, default: [:]][beacon] = time
    }

    func beacon(_ id: BeaconID) -> RangedBeacon? { beacons[id] }
    func regions(of id: BeaconID) -> Set<String> { regions[id] ?? [] }
    func occupancy(ofRoom room: String) -> Int { occupancy[room] ?? 0 }
    func lastPosted(_ event: String, for beacon: BeaconID) -> Timestamp? {
        guard let times = posted[event] else { return nil }
        let forBeacon = times[Optional(beacon)]
        let forAll = times[BeaconID?.none]
        return [forBeacon, forAll].compactMap { $0 }.max()
    }
}
