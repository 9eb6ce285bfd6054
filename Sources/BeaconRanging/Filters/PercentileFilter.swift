import BeaconCore

/// An adaptive percentile: the 75th percentile of the recent samples.
///
/// The window holds the samples of the last `window` of time, but never fewer than `minSamples`
/// (so a slow advertiser still gets a stable value) nor more than `maxSamples` (the memory
/// bound), which makes the window adapt to the advertising rate. The percentile is the
/// nearest-rank one: the sample at ascending index `⌈p·n⌉ − 1`. A high percentile resists the
/// deep fades that dominate RSSI noise (body shadowing, multipath nulls only ever lower RSSI).
public struct PercentileFilter: RSSIFilter {
    /// Parameters of the percentile filter.
    public struct Configuration: Hashable, Sendable {
        /// The percentile, in (0, 1]. Default 0.75.
        public var percentile: Double
        /// Samples older than this are dropped once `minSamples` remain. Default 10 s.
        public var window: Duration
        /// The window never shrinks below this many samples. Default 10.
        public var minSamples: Int
        /// The window never grows beyond this many samples. Default 200.
        public var maxSamples: Int

        /// Defaults: p75 over 10 s, between 10 and 200 samples.
        public init(
            percentile: Double = 0.75, window: Duration = .seconds(10),
            minSamples: Int = 10, maxSamples: Int = 200
        ) {
            self.percentile = percentile
            self.window = window
            self.minSamples = minSamples
            self.maxSamples = maxSamples
        }
    }

    /// The parameters in use.
    public let configuration: Configuration
    private var samples: SlidingWindow

    /// Creates an empty filter.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        samples = SlidingWindow(
            capacity: max(1, configuration.maxSamples), maxAge: configuration.window,
            minKept: configuration.minSamples)
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) { samples.add(rssi, at: time) }

    public var estimate: Double? {
        let n = samples.count
        guard n > 0 else { return nil }
        let rank = (configuration.percentile * Double(n)).rounded(.up)
        let index = min(n - 1, max(0, Int(rank) - 1))
        return samples.sorted[index]
    }

    public mutating func reset() { samples.removeAll() }
}
