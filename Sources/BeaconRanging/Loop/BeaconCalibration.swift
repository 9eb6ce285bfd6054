/// Per-beacon calibration that overrides what the frames and the defaults say.
public struct BeaconCalibration: Hashable, Sendable {
    /// RSSI at 1 m (dBm) to use instead of the frame's measured power.
    public var measuredPower: Int8?
    /// Path-loss exponent to use instead of the model's.
    public var pathLossExponent: Double?

    /// A calibration; `nil` fields keep the default.
    public init(measuredPower: Int8? = nil, pathLossExponent: Double? = nil) {
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
    }
}
