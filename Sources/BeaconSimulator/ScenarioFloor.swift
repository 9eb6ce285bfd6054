import BeaconCore

/// A floor of a simulated building: its name and the height its floor slab is at.
///
/// A point is on the highest floor whose ``elevation`` is at or below its height (on the lowest
/// floor when below them all). Rooms name their floor; gateways are on their position's floor;
/// a radio path loses `RadioModel.floorLoss` dB per floor between beacon and gateway; a walker
/// changes floor where its path climbs through an elevation (stairs).
public struct ScenarioFloor: Hashable, Sendable {
    /// The floor's name (what the hub reports).
    public var name: String
    /// The height of the floor, metres.
    public var elevation: Double

    /// Creates a floor.
    public init(name: String, elevation: Double) {
        self.name = name
        self.elevation = elevation
    }
}
