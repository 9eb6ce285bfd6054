/// One gateway's contribution to a position estimate in one cycle.
struct PositionEvidence {
    /// The gateway's antenna.
    var x: Double
    var y: Double
    var z: Double
    /// The path loss it measured, dB: the beacon's measured power minus the cycle's mean RSSI.
    var loss: Double
    /// 1/σ² of that loss, from the model's spread and the gateway's own uncertainty.
    var weight: Double
    /// The path-loss exponent towards this gateway (the site's, or the gateway's own where
    /// self-calibration found one).
    var exponent: Double
    /// The distance this cycle's mean RSSI gives under the model, metres (for the centroid of
    /// the strongest four: set for those only).
    var distance: Double
    /// The cycle's mean RSSI (offset applied), to rank gateways.
    var rssi: Double
}
