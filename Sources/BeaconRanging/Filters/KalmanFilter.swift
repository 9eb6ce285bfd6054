import BeaconCore

/// The one-dimensional Kalman filter commonly used for RSSI (a constant-state model).
///
/// Starts at the first sample with covariance `R`; then for each sample `z`:
/// `p⁻ = p + Q`, `K = p⁻ / (p⁻ + R)`, `x = x + K·(z − x)`, `p = (1 − K)·p⁻`.
public struct KalmanFilter: RSSIFilter {
    /// Parameters of the Kalman filter.
    public struct Configuration: Hashable, Sendable {
        /// Process noise `Q` (how much the true RSSI may drift per sample). Default 0.008.
        public var processNoise: Double
        /// Measurement noise `R` (variance of one RSSI reading, dB²). Default 4.
        public var measurementNoise: Double

        /// The common RSSI defaults: Q = 0.008, R = 4.
        public init(processNoise: Double = 0.008, measurementNoise: Double = 4) {
            self.processNoise = processNoise
            self.measurementNoise = measurementNoise
        }
    }

    /// The parameters in use.
    public let configuration: Configuration
    private var x = 0.0
    private var p = 0.0
    private var started = false

    public var estimate: Double? { started ? x : nil }
    /// The estimate's variance `p` (dB²), `nil` before the first sample.
    public var covariance: Double? { started ? p : nil }

    /// Creates an empty filter.
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        guard started else {
            x = rssi
            p = configuration.measurementNoise
            started = true
            return
        }
        let predicted = p + configuration.processNoise
        let gain = predicted / (predicted + configuration.measurementNoise)
        x += gain * (rssi - x)
        p = (1 - gain) * predicted
    }

    public mutating func reset() { started = false }
}
