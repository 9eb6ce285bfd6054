import BeaconCore

/// A curve fitted to measurements of one phone: `d = A·(rssi/P)^B + C` for `rssi/P ≥ 1`, and
/// `(rssi/P)^10` below 1 (AltBeacon's `CurveFittedDistanceCalculator`). The coefficients are
/// data, so a site can fit its own.
public struct CurveFittedModel: DistanceModel, Hashable {
    /// Coefficient `A`.
    public var coefficientA: Double
    /// Exponent `B`.
    public var coefficientB: Double
    /// Offset `C`.
    public var coefficientC: Double

    /// A model with the given coefficients; the defaults are AltBeacon's Nexus 5 fit
    /// (0.42093, 6.9476, 0.54992).
    public init(coefficientA: Double = 0.42093, coefficientB: Double = 6.9476, coefficientC: Double = 0.54992) {
        self.coefficientA = coefficientA
        self.coefficientB = coefficientB
        self.coefficientC = coefficientC
    }

    public func distance(rssi: Double, measuredPower: Double, pathLossExponent: Double?) -> Double {
        let ratio = rssi / measuredPower
        if ratio < 1 { return power(ratio, 10) }
        return coefficientA * power(ratio, coefficientB) + coefficientC
    }
}
