/// The settings of the hub's grid filter (`hub.position.grid`): how fine its cells are and how
/// people move.
public struct GridTracking: Hashable, Sendable {
    /// The side of a cell, metres (default 0.5); widened on a site too large for ``maxCells``.
    public var cellSize: Double
    /// The most cells a beacon's posterior may have (default 1,024: 4 KiB per tracked beacon).
    public var maxCells: Int
    /// How fast a walking person moves, m/s (default 1.2): the motion model's spread per second.
    public var walkingSpeed: Double
    /// The share of the probability that stands still between two cycles (default 0.5).
    public var stillShare: Double
    /// The weakest RSSI a gateway hears, dBm (default −95): a gateway that did not hear the beacon
    /// makes the cells where the model says it should have less likely. `nil`: misses are no
    /// evidence.
    public var sensitivity: Double?

    /// Creates the settings.
    public init(
        cellSize: Double = 0.5, maxCells: Int = 1024, walkingSpeed: Double = 2.0, stillShare: Double = 0.2,
        sensitivity: Double? = -95
    ) {
        self.cellSize = cellSize
        self.maxCells = maxCells
        self.walkingSpeed = walkingSpeed
        self.stillShare = stillShare
        self.sensitivity = sensitivity
    }
}
