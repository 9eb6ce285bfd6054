/// Turns a (filtered) RSSI into a distance estimate.
public protocol DistanceModel: Sendable {
    /// The estimated distance in metres for `rssi` (dBm) from a beacon whose RSSI at 1 m is
    /// `measuredPower` (dBm). `pathLossExponent` is a per-beacon override; models without an
    /// exponent ignore it.
    func distance(rssi: Double, measuredPower: Double, pathLossExponent: Double?) -> Double
}

extension DistanceModel {
    /// The distance with the model's own exponent.
    public func distance(rssi: Double, measuredPower: Double) -> Double {
        distance(rssi: rssi, measuredPower: measuredPower, pathLossExponent: nil)
    }
}
