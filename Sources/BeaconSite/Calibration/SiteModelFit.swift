import BeaconCore

/// Fits a site's radio model (``SiteRadioModel``) to a ``CalibrationWindow``, and judges the fit on
/// the share of the window it did not see.
///
/// - **The fit.** Every fourth fix is held back; on the rest, positions and model are solved in
///   turn, four rounds: each moving beacon's position by the hub's own multilateration under the
///   current model, then the exponent and every gateway's receive offset by one weighted
///   linear least-squares solve over all fixes (each fix's own offset *b* eliminated), with Huber
///   weights (a misfit beyond one model σ counts linearly, not squared), priors (the exponent
///   near the configured one, offsets near 0) and bounds. Anchors enter with their known
///   positions. The tags' height is not fitted (see ``run(_:current:)``).
/// - **The test.** On the held-back fixes, each gateway's path loss is predicted from the other
///   gateways of its fix alone (the position solved without it; for anchors, known), under the
///   model in use and under the fit. The fit is applied when its robust misfit is lower by
///   ``SelfCalibration/requiredGain``.
/// - **Degenerate fits** are reported, not applied: an exponent on a bound, receive offsets on
///   their bound, every offset converged to one value.
///   An exponent the data do not pin down (its standard error more than half its prior) is held
///   at the current one and the rest fitted.
struct SiteModelFit {
    /// What a fit came to.
    struct Outcome {
        /// The fit (the current model when there was none).
        var model: SiteRadioModel
        /// The model to use from now on, when it changes: the fit (applied) or the configured
        /// one (reverted).
        var use: SiteRadioModel?
        var verdict: CalibrationStatus.Verdict
        var reason: String
        var fixes: Int
        var anchorMeasurements: Int
        var heldOutBefore: Double?
        var heldOutAfter: Double?
        var exponentError: Double?
    }

    let gateways: [Vector3?]
    let gatewayIDs: [String]
    let settings: SelfCalibration
    /// The configured exponent: the prior's centre.
    let exponentCentre: Double
    let modelSigma: Double
    /// The prior of a fix's own offset *b*, dB.
    let beaconPrior: Double
    let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)

    var evidence: [PositionEvidence] = []
    var positions: [(x: Double, y: Double)?] = []
    /// Each fix's weight by place (``spreadWeights(_:)``).
    var placeWeights: [Double] = []
    var fixesByPlace: [Int64: Int] = [:]

    init(
        gateways: [Vector3?], gatewayIDs: [String], settings: SelfCalibration, exponentCentre: Double, modelSigma: Double,
        beaconPrior: Double, bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) {
        self.gateways = gateways
        self.gatewayIDs = gatewayIDs
        self.settings = settings
        self.exponentCentre = exponentCentre
        self.modelSigma = modelSigma
        self.beaconPrior = beaconPrior
        self.bounds = bounds
        evidence.reserveCapacity(CalibrationWindow.perFix)
    }

    typealias Item = (ring: CalibrationWindow.Ring, index: Int)

    /// Fits `window`, starting from `current`, and judges the fit against `current` and the
    /// `configured` model: applied when it predicts the held-back fixes better than both; the
    /// configured model is taken back when it predicts them better than the current (an earlier
    /// fit that no longer holds).
    mutating func run(_ window: CalibrationWindow, current: SiteRadioModel, configured: SiteRadioModel) -> Outcome {
        var training: [Item] = []
        var heldOut: [Item] = []
        var anchorMeasurements = 0
        for ring in [window.mobile, window.anchored] {
            for i in 0..<ring.count {
                let count = ring.fix(i).header.count
                guard count >= 2 else { continue }
                if ring.fix(i).header.known != nil { anchorMeasurements += count }
                if i % 4 == 3 { heldOut.append((ring, i)) } else { training.append((ring, i)) }
            }
        }
        // Moving beacons' fixes from a handful of places cannot tell those places' shadowing from
        // the gateways' offsets, and the held-back share, from the same places, would vouch for
        // it: without enough places they are left out (anchors' positions are known).
        let places = distinctPlaces(training + heldOut)
        let offered = training.count + heldOut.count
        var placesNote: String?
        if offered >= settings.minimumFixes, places < Self.minimumPlaces {
            let moving = (training + heldOut).filter { $0.ring.fix($0.index).header.known == nil }.count
            if moving > 0 {
                placesNote =
                    "\(moving) fixes of moving beacons from \(places) places (\(Self.minimumPlaces) needed) left out: "
                    + "a tag parked in one spot cannot calibrate a site; walk one around it"
                training.removeAll { $0.ring.fix($0.index).header.known == nil }
                heldOut.removeAll { $0.ring.fix($0.index).header.known == nil }
            }
        }
        var outcome = Outcome(
            model: current, verdict: .none, reason: "", fixes: training.count + heldOut.count,
            anchorMeasurements: anchorMeasurements)
        guard training.count + heldOut.count >= settings.minimumFixes, !heldOut.isEmpty else {
            outcome.reason =
                placesNote ?? "\(training.count + heldOut.count) fixes, \(settings.minimumFixes) needed"
            return outcome
        }
        // The tags' height is not fitted: from moving beacons alone it trades against the exponent
        // (profiled over a grid it chose 2.5 m on a simulated shop whose tags are at 1.2 m, and
        // 1.0 m on a real walk at 1.85 m). Each fix keeps the height it was solved at.
        var best: (model: SiteRadioModel, error: Double, heldExponent: Bool)
        let (fitted, error) = fit(training, from: current, fixExponent: settings.fixedExponent)
        best = (fitted, error, false)
        if !settings.fixedExponent, error > 0.5 * settings.exponentPrior {
            best = (fit(training, from: current, fixExponent: true).0, error, true)
        }
        outcome.model = best.model
        outcome.exponentError = best.heldExponent ? nil : best.error
        let before = heldOutMisfit(heldOut, model: current)
        let after = heldOutMisfit(heldOut, model: best.model)
        let base = current == configured ? before : heldOutMisfit(heldOut, model: configured)
        outcome.heldOutBefore = before
        outcome.heldOutAfter = after
        var notes: [String] = []
        if best.heldExponent {
            notes.append("the data do not pin the exponent down: held at \(rounded(current.pathLossExponent))")
        }
        if let problem = degeneracy(best.model) {
            outcome.verdict = .degenerate
            outcome.reason = problem
            return outcome
        }
        guard let before, let after, let base else {
            outcome.verdict = .notBetter
            outcome.reason = "no held-back fix could be predicted"
            return outcome
        }
        let reference = min(before, base)
        let gain = reference > 0 ? (reference - after) / reference : 0
        let summary = "held-back misfit \(rounded(before)) → \(rounded(after)) dB"
        if gain >= settings.requiredGain {
            outcome.verdict = .applied
            outcome.use = best.model
            outcome.reason = ([summary] + notes).joined(separator: "; ")
        } else if base < before * (1 - settings.requiredGain) {
            outcome.verdict = .reverted
            outcome.use = configured
            outcome.reason =
                "the configured model predicts the held-back fixes better than the one in use "
                + "(\(rounded(base)) against \(rounded(before)) dB; the fit: \(rounded(after)) dB): back to it"
        } else {
            outcome.verdict = .notBetter
            outcome.reason =
                ([summary + " (\(rounded(gain * 100))% better, \(rounded(settings.requiredGain * 100))% needed)"] + notes)
                .joined(separator: "; ")
        }
        return outcome
    }

    // MARK: The fit

    /// Alternates positions and the linear solve; returns the model and the exponent's standard
    /// error.
    private mutating func fit(
        _ items: [Item], from start: SiteRadioModel, fixExponent: Bool
    ) -> (SiteRadioModel, Double) {
        var model = start
        let parameters = 1 + 2 * gateways.count
        let supported = exponentSupport(items)
        var huber = [[Double]](repeating: [], count: items.count)
        var exponentError = Double.infinity
        for round in 0..<4 {
            // Positions of the moving beacons under the current model.
            positions.removeAll(keepingCapacity: true)
            for item in items {
                let (header, measurements) = item.ring.fix(item.index)
                if let known = header.known {
                    positions.append((known.x, known.y))
                } else {
                    positions.append(
                        locate(measurements, model: model, skip: -1, height: header.height, around: header.place))
                }
            }
            spreadWeights(items)
            // The linear solve: θ = (n, o₀ … o_G−1, δ₀ … δ_G−1); the raw loss of a measurement at
            // gateway g is (n + δ_g)·l + o_g + b, l = 10·log10(ρ): a = (l, e_g, l·e_g).
            let count = gateways.count
            var normal = [Double](repeating: 0, count: parameters * parameters)
            var rhs = [Double](repeating: 0, count: parameters)
            let priorWeight = 1 / (beaconPrior * beaconPrior)
            var terms: [(column: Int, value: Double)] = []
            var sums: [Int: Double] = [:]
            for (k, item) in items.enumerated() {
                guard let position = positions[k] else { continue }
                let (header, measurements) = item.ring.fix(item.index)
                let height = header.height
                var sw = priorWeight
                var sy = 0.0
                sums.removeAll(keepingCapacity: true)
                for (j, m) in measurements.enumerated() {
                    guard let g = gatewayPosition(m.gateway) else { continue }
                    let w =
                        (round == 0 || huber[k].count <= j ? 1 : huber[k][j]) * placeWeights[k] / (modelSigma * modelSigma)
                    let l = logDistance(g, position, height)
                    let y = Double(m.loss)
                    let gateway = Int(m.gateway)
                    terms.removeAll(keepingCapacity: true)
                    terms.append((0, l))
                    terms.append((1 + gateway, 1))
                    if supported[gateway] { terms.append((1 + count + gateway, l)) }
                    for (c, a) in terms {
                        rhs[c] += w * a * y
                        sums[c, default: 0] += w * a
                        for (d, b) in terms { normal[c * parameters + d] += w * a * b }
                    }
                    sw += w
                    sy += w * y
                }
                // − s sᵀ / W and − s (Σ w y) / W, s = Σ w a: the fix's own offset b eliminated.
                for (c, sc) in sums {
                    rhs[c] -= sc * sy / sw
                    for (d, sd) in sums { normal[c * parameters + d] -= sc * sd / sw }
                }
            }
            // Priors, and the values set by hand.
            let pinned = 1e8
            let exponentWeight = fixExponent ? pinned : 1 / (settings.exponentPrior * settings.exponentPrior)
            let exponentTarget = fixExponent ? start.pathLossExponent : exponentCentre
            normal[0] += exponentWeight
            rhs[0] += exponentWeight * exponentTarget
            for g in 0..<count {
                let c = 1 + g
                let fixed = settings.fixedOffsets.contains(g) || gateways[g] == nil
                normal[c * parameters + c] += fixed ? pinned : 1 / (settings.offsetPrior * settings.offsetPrior)
                let e = 1 + count + g
                normal[e * parameters + e] +=
                    supported[g] && !fixExponent
                    ? 1 / (settings.gatewayExponentPrior * settings.gatewayExponentPrior) : pinned
            }
            guard let theta = CalibrationMath.choleskySolve(normal, rhs, size: parameters) else { break }
            var unit = [Double](repeating: 0, count: parameters)
            unit[0] = 1
            if let column = CalibrationMath.choleskySolve(normal, unit, size: parameters), column[0] > 0 {
                exponentError = column[0].squareRoot()
            }
            model.pathLossExponent =
                fixExponent
                ? start.pathLossExponent
                : min(max(theta[0], settings.exponentBounds.lowerBound), settings.exponentBounds.upperBound)
            for g in 0..<count {
                let fixed = settings.fixedOffsets.contains(g) || gateways[g] == nil
                model.receiveOffsets[g] = fixed ? 0 : min(max(theta[1 + g], -settings.offsetBound), settings.offsetBound)
                model.exponentOffsets[g] =
                    supported[g] && !fixExponent
                    ? min(max(theta[1 + count + g], -settings.gatewayExponentBound), settings.gatewayExponentBound) : 0
            }
            // Residuals for the next round's weights.
            for (k, item) in items.enumerated() {
                guard let position = positions[k] else {
                    huber[k] = []
                    continue
                }
                let (header, measurements) = item.ring.fix(item.index)
                let residuals = fixResiduals(measurements, at: position, height: header.height, model: model)
                huber[k] = residuals.map { r in abs(r) <= modelSigma ? 1 : modelSigma / abs(r) }
            }
        }
        return (model, exponentError)
    }
}
