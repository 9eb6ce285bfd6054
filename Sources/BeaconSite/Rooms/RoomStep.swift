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
    /// The beacon's position track restarts: its room was taken or changed, or is unknown.
    var restartsTrack = false
}
