import BeaconCore

/// What a running pipeline looked like after its latest input: what the endpoint, the metrics and
/// the status page read, without touching the pipeline (which belongs to its runner's task).
public struct PipelineSnapshot: Sendable {
    /// What has been processed so far.
    public var statistics = PipelineStatistics()
    /// Beacons tracked by the ranging loop.
    public var trackedBeacons = 0
    /// The latest time reached (a packet's, or an advance).
    public var latestTime: Timestamp?
    /// The ids of the alerts in force.
    public var alertIDs: [String] = []
    /// Inputs taken.
    public var inputs = 0

    /// An empty snapshot (before the first input).
    public init() {}
}
