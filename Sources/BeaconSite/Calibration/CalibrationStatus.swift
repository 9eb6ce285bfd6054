import BeaconCore

/// What a hub's self-calibration has found: the model in use, the latest fit, what it rests on
/// and why it was or was not applied (`/api/site`, metrics, the page).
public struct CalibrationStatus: Hashable, Sendable, Codable {
    /// What the latest fit came to.
    public enum Verdict: String, Hashable, Sendable, Codable {
        /// No fit yet (too few fixes, or calibration off).
        case none
        /// The fit predicted the held-back fixes better and is in use.
        case applied
        /// The fit did not predict the held-back fixes better than the model in use: kept.
        case notBetter = "not_better"
        /// The fit ended on a bound, or could not tell its parameters apart: reported, not applied.
        case degenerate
        /// The configured model predicted the held-back fixes better than an earlier fit in use:
        /// taken back.
        case reverted
    }

    /// The site's gateways, in layout order (the order of the model's receive offsets).
    public var gateways: [String]
    /// The model positions are solved with now.
    public var model: SiteRadioModel
    /// The latest fit's model (equal to ``model`` when applied; `nil` before the first fit).
    public var candidate: SiteRadioModel?
    /// The latest fit's verdict.
    public var verdict: Verdict
    /// Why, in words (what was degenerate, how much better or worse it predicted).
    public var reason: String
    /// Hub time of the latest fit.
    public var fittedAt: Timestamp?
    /// Fixes of moving beacons the latest fit used.
    public var fixes: Int
    /// Measurements of anchors (known positions) the latest fit used.
    public var anchorMeasurements: Int
    /// The held-back share's misfit under the model in use and under the fit, dB RMS (robust).
    public var heldOutBefore: Double?
    /// See ``heldOutBefore``.
    public var heldOutAfter: Double?
    /// The exponent's standard error in the latest fit (how much the data pinned it down).
    public var exponentError: Double?
    /// Fits made, and applied, since the hub started.
    public var fits: Int
    /// See ``fits``.
    public var applied: Int

    /// The status of a hub that has not fitted yet.
    public init(model: SiteRadioModel, gateways: [String]) {
        self.model = model
        self.gateways = gateways
        verdict = .none
        reason = "no fit yet"
        fixes = 0
        anchorMeasurements = 0
        fits = 0
        applied = 0
    }

    /// One line for a person: the verdict and why, the model in use, what the fit rests on.
    public var summary: String {
        var parts = ["\(verdict.rawValue) (\(reason))"]
        parts.append("exponent \(rounded(model.pathLossExponent)), tag height \(rounded(model.tagHeight)) m")
        let offsets = zip(gateways, model.receiveOffsets).filter { abs($0.1) >= 0.05 }
        if !offsets.isEmpty {
            parts.append(
                "receive offsets " + offsets.map { "\($0.0) \($0.1 >= 0 ? "+" : "")\(rounded($0.1)) dB" }.joined(separator: ", "))
        }
        let exponents = gateways.indices.filter { model.exponentOffsets[$0] != 0 }
        if !exponents.isEmpty {
            parts.append(
                "gateway exponents " + exponents.map { "\(gateways[$0]) \(rounded(model.exponent($0)))" }.joined(separator: ", "))
        }
        parts.append("\(fixes) fixes, \(anchorMeasurements) anchor measurements")
        return parts.joined(separator: "; ")
    }
}
