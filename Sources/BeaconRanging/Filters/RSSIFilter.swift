import BeaconCore

/// A smoother for one beacon's RSSI samples.
///
/// Filters are value types holding only their own state; their parameters come from an
/// immutable configuration given at construction. A filter keeps fixed-capacity storage, so
/// adding a sample never allocates once the filter exists. Time is an input: `add` receives the
/// sample's timestamp and no filter reads a clock.
public protocol RSSIFilter: Sendable {
    /// Adds one RSSI sample (dBm) received at `time`.
    mutating func add(_ rssi: Double, at time: Timestamp)

    /// The current filtered RSSI (dBm), or `nil` before the first sample.
    var estimate: Double? { get }

    /// Forgets every sample, as if newly created.
    mutating func reset()
}
