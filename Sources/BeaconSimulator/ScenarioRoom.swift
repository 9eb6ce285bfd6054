import BeaconCore

/// A room of a simulated site: a rectangle of the floor plan (heights do not matter; on a site
/// with floors, the room is on its ``floor``).
///
/// Rooms give the ground truth of a site (which room each walker is in) and, unless a gateway
/// names its own, the room of each gateway (the one its position falls in).
public struct ScenarioRoom: Hashable, Sendable {
    /// The room's name (what the hub reports and strategies name).
    public var name: String
    /// The corner with the smallest x and y, metres.
    public var minimum: Vector3
    /// The corner with the largest x and y, metres.
    public var maximum: Vector3
    /// The floor the room is on (one of the scenario's floors), `nil` without floors.
    public var floor: String?

    /// Creates a room spanning the rectangle between two corners, in any order.
    public init(name: String, corner: Vector3, opposite: Vector3, floor: String? = nil) {
        self.name = name
        self.floor = floor
        minimum = Vector3(min(corner.x, opposite.x), min(corner.y, opposite.y), 0)
        maximum = Vector3(max(corner.x, opposite.x), max(corner.y, opposite.y), 0)
    }

    /// Whether `point`'s floor position lies in the room (edges included).
    public func contains(_ point: Vector3) -> Bool {
        point.x >= minimum.x && point.x <= maximum.x && point.y >= minimum.y && point.y <= maximum.y
    }
}
