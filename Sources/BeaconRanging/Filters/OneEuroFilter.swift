import BeaconCore

/// The 1€ filter (Casiez, Roussel and Vogel, CHI 2012): a first-order low-pass filter whose
/// cutoff rises with the signal's speed, so it smooths a still beacon hard and follows a moving
/// one quickly.
///
/// For each sample `x` at interval `Δt` (from the timestamps; at least 1 ms):
/// `dx = (x − x_prev)/Δt`, `d̂x = lowpass(dx, α(d_cutoff))`, `f_c = min_cutoff + β·|d̂x|`,
/// `x̂ = lowpass(x, α(f_c))`, with `α(f) = 1 / (1 + τ/Δt)` and `τ = 1/(2πf)`. The first sample
/// passes through and `d̂x` starts at 0, as in the authors' reference code.
public struct OneEuroFilter: RSSIFilter {
    /// Parameters of the 1€ filter.
    public struct Configuration: Hashable, Sendable {
        /// Minimum cutoff frequency (Hz). The authors' default: 1.0.
        public var minCutoff: Double
        /// Speed coefficient β (Hz per dB/s). The authors' default: 0.0.
        public var beta: Double
        /// Cutoff for the derivative (Hz). The authors' default: 1.0.
        public var derivativeCutoff: Double

        /// The reference implementation's defaults: min cutoff 1 Hz, β 0, d-cutoff 1 Hz.
        public init(minCutoff: Double = 1.0, beta: Double = 0.0, derivativeCutoff: Double = 1.0) {
            self.minCutoff = minCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
        }
    }

    /// The parameters in use.
    public let configuration: Configuration
    public private(set) var estimate: Double?
    private var lastRaw = 0.0
    private var derivative = 0.0
    private var lastTime = Timestamp.epoch

    /// Creates an empty filter.
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        defer {
            lastRaw = rssi
            lastTime = time
        }
        guard let previous = estimate else {
            estimate = rssi
            derivative = 0
            return
        }
        let dt = max(1e-3, (time - lastTime).secondsValue)
        let rawDerivative = (rssi - lastRaw) / dt
        derivative += Self.alpha(cutoff: configuration.derivativeCutoff, dt: dt) * (rawDerivative - derivative)
        let cutoff = configuration.minCutoff + configuration.beta * abs(derivative)
        estimate = previous + Self.alpha(cutoff: cutoff, dt: dt) * (rssi - previous)
    }

    public mutating func reset() { estimate = nil }

    /// The smoothing factor of a first-order low-pass filter with `cutoff` (Hz) at interval `dt` (s).
    static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }
}
