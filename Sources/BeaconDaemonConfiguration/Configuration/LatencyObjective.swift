import BeaconConfiguration

/// The latency a daemon promises for delivered alerts (`latency:`): when the chosen percentile
/// of the advertisement-to-sink latency over the latest window exceeds the objective, for any
/// sink, every sink gets a `latencyObjectiveMissed` event; once it is back under, a
/// `latencyObjectiveMet` one.
///
/// ```yaml
/// latency: {objective: 5s}                                   # p99 over 15 minutes
/// latency: {objective: 2s, percentile: 95, window: 5m, minDeliveries: 50}
/// ```
/// Measured only with a live source (a radio, a simulation on the wall clock, a hub): a replay
/// or a paced simulation runs on a time of its own, against which a sink's wall-clock moment
/// means nothing.
public struct LatencyObjective: Hashable, Sendable {
    /// The highest latency allowed at ``percentile``.
    public var objective: Duration
    /// The percentile bounded, from 0 to 1 (default 0.99).
    public var percentile: Double
    /// How far back the deliveries counted go (default 15 minutes).
    public var window: Duration
    /// The fewest deliveries in the window for a verdict (default 20, at most 10,000: the window
    /// keeps the latest 10,000): below it, nothing changes.
    public var minDeliveries: Int

    /// Creates an objective.
    public init(objective: Duration, percentile: Double = 0.99, window: Duration = .seconds(900), minDeliveries: Int = 20) {
        self.objective = objective
        self.percentile = percentile
        self.window = window
        self.minDeliveries = minDeliveries
    }

    /// Reads `latency:`.
    static func read(_ node: ConfigNode) throws(ConfigurationError) -> LatencyObjective {
        try node.checkKeys(allowed: ["objective", "percentile", "window", "minDeliveries"])
        guard let objectiveNode = node["objective"] else {
            throw node.error("latency: needs objective: the highest latency allowed, e.g. {objective: 5s}")
        }
        var objective = LatencyObjective(objective: try objectiveNode.positiveDuration())
        if let percentile = node["percentile"] {
            objective.percentile = try percentile.number(in: 1...99.9, "a percentile from 1 to 99.9, e.g. 99") / 100
        }
        if let window = node["window"] {
            objective.window = try window.positiveDuration()
        }
        if let minimum = node["minDeliveries"] {
            // The window keeps the latest 10,000 deliveries: a verdict can need no more.
            objective.minDeliveries = try minimum.integer(in: 1...10_000, "a count from 1 to 10000")
        }
        return objective
    }
}
