import BeaconCore

/// The log-distance path-loss model: `d = 10^((P − RSSI) / (10·n))`, with `P` the measured power
/// (RSSI at 1 m) and `n` the path-loss exponent (2 in free space; indoors typically 1.5–4).
public struct LogDistanceModel: DistanceModel, Hashable {
    /// The path-loss exponent `n` used when a beacon has no override.
    public var exponent: Double

    /// A model with exponent `n`. The default is chosen from the evaluation in Docs/Ranging.md.
    public init(exponent: Double = LogDistanceModel.defaultExponent) { self.exponent = exponent }

    /// The default exponent: 1.5, the best fit of both indoor recordings of the evaluation
    /// (Docs/Ranging.md); free-space 2.0 overestimates long distances there by a factor 2–3.
    public static let defaultExponent = 1.5

    public func distance(rssi: Double, measuredPower: Double, pathLossExponent: Double?) -> Double {
        let n = pathLossExponent ?? exponent
        return PathLoss.distance(measuredPower: measuredPower, exponent: n, rssi: rssi)
    }
}
