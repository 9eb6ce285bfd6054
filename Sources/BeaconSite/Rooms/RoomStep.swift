import BeaconCore
import BeaconRanging

/// What one cycle of the room rule did to a beacon (``RoomDecider/decide(_:scores:gateways:now:silence:)``):
/// what its caller reports and counts.
struct RoomStep: Equatable {
    /// The room whose exit to report, -1 for none.
    var exited: Int32 = -1
    /// The room whose entry to report, -1 for none.
    var entered: Int32 = -1
    /// The beacon changed room by the rule (not its first room).
    var changed = false
    /// That change was to another floor.
    var changedFloor = false
    /// The room is reported as unknown this cycle.
    var unknown = false
    /// Every gateway of the beacon's room is offline: the room cannot be told, nor the position
    /// from the other rooms' gateways alone (set by the rule on outlined rooms; the gateways'
    /// rule leaves every unknown beacon unplaced).
    var roomOffline = false
    /// The beacon's position track restarts: its room was taken or changed, or is unknown.
    var restartsTrack = false

    /// Appends the step's exit and entry of `beacon` at `time` to `events`, as region events named
    /// by `rooms`.
    func report(_ beacon: BeaconID, at time: Timestamp, rooms: [String], into events: inout [RegionEvent]) {
        Self.report(beacon, exited: exited, entered: entered, at: time, rooms: rooms, into: &events)
    }

    /// Appends the exit of room `exited` and the entry of room `entered` (-1: none) by `beacon` at
    /// `time` to `events`, as region events named by `rooms`.
    static func report(
        _ beacon: BeaconID, exited: Int32, entered: Int32, at time: Timestamp, rooms: [String],
        into events: inout [RegionEvent]
    ) {
        if exited >= 0 {
            events.append(RegionEvent(kind: .exit, regionID: rooms[Int(exited)], beacon: beacon, time: time))
        }
        if entered >= 0 {
            events.append(RegionEvent(kind: .enter, regionID: rooms[Int(entered)], beacon: beacon, time: time))
        }
    }
}
