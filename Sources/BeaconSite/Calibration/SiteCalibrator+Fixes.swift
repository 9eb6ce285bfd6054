import BeaconCore
import BeaconSiteReport

extension SiteCalibrator {
    /// Files the readings of beacon `b` in `cycle` as a fix: each gateway that `counts` (it has a
    /// position on the beacon's floor) and heard it in the cycle, with its samples and the path
    /// loss of their mean from `measuredPower` (−59 dBm at 1 m when the beacon does not say).
    /// - Parameters:
    ///   - anchor: the anchor the beacon is, filed at its known place; else a moving beacon, solved
    ///     at the tags' `height`:
    ///   - posterior: within the grid filter's posterior this cycle (its mean and 90 % radius)
    ///     where it tracks the beacon,
    ///   - last: else near its last reported position (NaN: none).
    mutating func takeFix(
        of b: Int, cycle: Int64, evidence: EvidenceTable, counts: (_ gateway: Int) -> Bool, measuredPower: Int8?,
        anchor: SiteAnchor?, height: Double, posterior: (x: Double, y: Double, radius90: Double)?,
        last: (x: Float, y: Float)
    ) {
        measurements.removeAll(keepingCapacity: true)
        let power = Float(measuredPower ?? -59)
        for g in 0..<evidence.gatewayCount where counts(g) {
            let slot = evidence[evidence.index(beacon: b, gateway: g, cycle: cycle)]
            guard slot.cycle == cycle, slot.samples > 0, !slot.mean.isNaN else { continue }
            measurements.append(CalibrationWindow.Measurement(gateway: UInt16(g), samples: slot.samples, loss: power - slot.mean))
        }
        if let anchor {
            takeAnchorFix(anchor)
        } else if let posterior {
            // A round Gaussian holds 90 % of its mass within 2.146 σ.
            takeFix(height: height, place: (Float(posterior.x), Float(posterior.y), Float(posterior.radius90 / 2.146)))
        } else {
            takeFix(height: height, place: last.x.isNaN ? nil : (last.x, last.y, 0))
        }
    }
}
