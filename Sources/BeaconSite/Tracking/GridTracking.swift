/// The settings of the hub's grid filter (`hub.position.grid`): how fine its cells are and how
/// people move.
public struct GridTracking: Hashable, Sendable {
    /// The side of a cell, metres (default 0.5); widened on a site too large for ``cellBudget``.
    public var cellSize: Double
    /// The most cells a beacon's posterior may have. `nil` (the default): what ``stateBudget``
    /// leaves once the beacon's box, heading and smoothing history are counted (993 cells at
    /// `lag: 2`, 1,012 at `lag: 0`, 945 at `lag: 10`).
    public var maxCells: Int?
    /// How far the walking share spreads per second, m/s (default 4.0: twice a brisk walk, so that
    /// the filter also follows a tag where the radio model is wrong for a while; see
    /// `Docs/Site.md`, "The grid filter"), and the fastest heading it carries.
    public var walkingSpeed: Double
    /// The share of the probability that stands still between two cycles (default 0.2).
    public var stillShare: Double
    /// The weakest RSSI a gateway hears, dBm (default −95): a gateway that reported in the last
    /// two cycles and did not hear the beacon makes the cells where the model says it should have
    /// less likely. `nil`: misses are no evidence.
    public var sensitivity: Double?
    /// How much of a beacon's recent heading the walking share carries forward (default 1: all
    /// of it; 0: none, a random walk around the last estimate, which trails a walker). The heading
    /// is an α-β tracker's velocity: each step adds half of the estimate's surprise per second
    /// (where it landed, less where the heading carried it). Its pace also widens the 90 % radius
    /// a walking tag states on an open floor; without momentum the radius is a still tag's.
    public var momentum: Double
    /// How many of a beacon's steps late its smoothed position is (default 2; 0: none). The live
    /// position is unchanged; the smoothed one (`SiteCycleFacts/smoothedPosition(ofBeaconAt:)`,
    /// `smoothed` in a presence line) is decided again with the readings of the steps after it.
    public var lag: Int

    /// Creates the settings.
    public init(
        cellSize: Double = 0.5, maxCells: Int? = nil, walkingSpeed: Double = 4.0, stillShare: Double = 0.2,
        sensitivity: Double? = -95, momentum: Double = 1, lag: Int = 2
    ) {
        self.cellSize = cellSize
        self.maxCells = maxCells
        self.walkingSpeed = walkingSpeed
        self.stillShare = stillShare
        self.sensitivity = sensitivity
        self.momentum = momentum
        self.lag = lag
    }

    /// The bytes a tracked beacon's whole grid state fits in unless ``maxCells`` is set: 4 KiB.
    public static let stateBudget = 4096

    /// The most cells a posterior gets: ``maxCells``, or what ``stateBudget`` leaves.
    public var cellBudget: Int {
        maxCells ?? (Self.stateBudget - GridTracker.bytesBesidePosterior(lag: lag)) / MemoryLayout<Float>.stride
    }
}
