import BeaconCore

/// AltBeacon's `RunningAverageRssiFilter`: the mean of the samples of the last 20 seconds after
/// dropping the highest and lowest tenth.
///
/// With `n > 2` samples sorted ascending, the mean runs over indices `n/10 + 1 … n − n/10 − 2`
/// (integer division), exactly as AltBeacon computes it; with one or two samples it is their
/// plain mean. Unlike AltBeacon, samples expire relative to the newest sample's timestamp, never
/// to a clock, and the window is also bounded by a sample count.
public struct RunningAverageFilter: RSSIFilter {
    /// Parameters of the running average.
    public struct Configuration: Hashable, Sendable {
        /// Samples older than this (relative to the newest) are dropped. AltBeacon: 20 s.
        public var window: Duration
        /// Upper bound on the number of samples kept (memory bound). Default 200 (10 Hz × 20 s).
        public var maxSamples: Int

        /// AltBeacon's defaults: a 20 s window; at most 200 samples.
        public init(window: Duration = .seconds(20), maxSamples: Int = 200) {
            self.window = window
            self.maxSamples = maxSamples
        }
    }

    /// The parameters in use.
    public let configuration: Configuration
    private var samples: SlidingWindow

    /// Creates an empty filter.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        samples = SlidingWindow(capacity: max(1, configuration.maxSamples), maxAge: configuration.window)
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        samples.add(rssi, at: time)
    }

    public var estimate: Double? {
        let n = samples.count
        guard n > 0 else { return nil }
        let (start, end) = n > 2 ? (n / 10 + 1, n - n / 10 - 2) : (0, n - 1)
        var sum = 0.0
        for i in start...end { sum += samples.sorted[i] }
        return sum / Double(end - start + 1)
    }

    public mutating func reset() { samples.removeAll() }
}
