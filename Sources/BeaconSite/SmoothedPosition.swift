import BeaconCore

/// A beacon's position at an earlier time, decided again with the readings that came after it:
/// the grid filter's fixed-lag smoother (`hub.position.grid.lag`, `Docs/Site.md`, "The smoothed
/// position").
public struct SmoothedPosition: Hashable, Sendable {
    /// The time it speaks for: the end of the cycle `lag` steps before the newest.
    public var time: Timestamp
    /// The position then; its `radius90` is the smoothed posterior's.
    public var position: BeaconPosition

    /// Creates a smoothed position.
    public init(time: Timestamp, position: BeaconPosition) {
        self.time = time
        self.position = position
    }
}
