import BeaconCore

/// AltBeacon's `ArmaRssiFilter`, in floating point: `x ← x − c·(x − rssi)`, starting at the first
/// sample.
///
/// AltBeacon truncates the estimate to an integer after every step; this version keeps the
/// fraction, so small steps are not lost.
public struct ARMAFilter: RSSIFilter {
    /// Parameters of the ARMA filter.
    public struct Configuration: Hashable, Sendable {
        /// The weight `c` of each new sample, in (0, 1]. AltBeacon's default: 0.1.
        public var speed: Double

        /// AltBeacon's default speed, 0.1.
        public init(speed: Double = 0.1) { self.speed = speed }
    }

    /// The parameters in use.
    public let configuration: Configuration
    public private(set) var estimate: Double?

    /// Creates an empty filter.
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        estimate = Self.step(from: estimate, toward: rssi, speed: configuration.speed)
    }

    /// The estimate after `rssi` when it was `current` (`nil` before the first sample). The
    /// ranging loop runs this step on its own compact state.
    @inline(__always)
    static func step(from current: Double?, toward rssi: Double, speed: Double) -> Double {
        let current = current ?? rssi
        return current - speed * (current - rssi)
    }

    public mutating func reset() { estimate = nil }
}
