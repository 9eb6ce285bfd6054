import BeaconCore
import BeaconRanging

/// Keeps each beacon's last notable presence and collects the changes since they were last
/// taken: a beacon that appeared, changed proximity notably, or left (`AlertPipeline.recordsPresence`).
struct PresenceRecorder {
    private var presence: [BeaconID: BeaconPresence] = [:]
    private var changes: [BeaconPresence] = []

    /// Notes what `update` changed: beacons whose presence differs notably from the last noted,
    /// and the evicted as gone at the update's time.
    mutating func record(_ update: RangingUpdate) {
        for beacon in update.beacons {
            let now = BeaconPresence(beacon)
            if let last = presence[beacon.id], !now.differsNotably(from: last) { continue }
            presence[beacon.id] = now
            changes.append(now)
        }
        for id in update.evicted where presence.removeValue(forKey: id) != nil {
            changes.append(BeaconPresence(id: id, present: false, proximity: .unknown, lastSeen: update.time))
        }
    }

    /// The changes since the last call, in the order they happened.
    mutating func take() -> [BeaconPresence] {
        defer { changes.removeAll(keepingCapacity: true) }
        return changes
    }
}
