/// One sink's advertisement-to-sink latency over the latest window, as `/api/status` shows it
/// (`latency`): how many delivered alerts the window holds, their median and 99th percentile,
/// and the objective when one is configured (`latency:`).
public struct SinkLatency: Hashable, Sendable {
    /// The sink's name in configuration.
    public var sink: String
    /// The deliveries the window holds.
    public var deliveries: Int
    /// The median latency, seconds (`nil` before the first delivery).
    public var p50: Double?
    /// The 99th-percentile latency, seconds (`nil` before the first delivery).
    public var p99: Double?
    /// The window's length, seconds.
    public var windowSeconds: Double
    /// The configured objective, seconds, if any.
    public var objectiveSeconds: Double?
    /// Whether the objective is missed now (its percentile over the window exceeds it).
    public var objectiveMissed: Bool

    /// Creates a sink's latency summary.
    public init(
        sink: String, deliveries: Int, p50: Double?, p99: Double?, windowSeconds: Double, objectiveSeconds: Double? = nil,
        objectiveMissed: Bool = false
    ) {
        self.sink = sink
        self.deliveries = deliveries
        self.p50 = p50
        self.p99 = p99
        self.windowSeconds = windowSeconds
        self.objectiveSeconds = objectiveSeconds
        self.objectiveMissed = objectiveMissed
    }
}
