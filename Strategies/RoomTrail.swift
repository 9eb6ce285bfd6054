import BeaconCore

/// The memory of the room-change strategy: the beacon's latest room, when it was last there,
/// and whether the latest update was a change that fires.
public struct RoomTrail: Hashable, Sendable, Codable {
    /// The latest room a hub placed the beacon in; nil before any.
    public var room: String?
    /// The latest cycle the beacon was in ``room``.
    public var lastInRoom: Timestamp?
    /// True only at the cycle of a change that fires.
    public var event: Bool

    /// No room yet.
    public init(room: String? = nil, lastInRoom: Timestamp? = nil, event: Bool = false) {
        self.room = room
        self.lastInRoom = lastInRoom
        self.event = event
    }
}
