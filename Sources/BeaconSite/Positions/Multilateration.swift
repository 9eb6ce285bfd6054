import BeaconCore

/// Position estimates from several gateways' RSSI: weighted least squares in the RSSI domain,
/// with the centroid of the strongest gateways as start and fallback.
///
/// The model is the log-distance one the gateways range with: a gateway at distance ρ measures
/// a path loss of `10·n·log10(ρ) + b` dB, where `b` is one offset common to all gateways (it
/// absorbs a beacon whose measured power is off — a tag in a pocket, a wrong calibration),
/// softly held to 0 by a prior of ``PositioningConfiguration/offsetPrior`` dB. The unknowns
/// (x, y, b) are found by Gauss–Newton with step halving in the horizontal plane at the tags'
/// height; fitting in dB rather than in metres keeps the far gateways' large distance errors from
/// dominating. Works on a caller-owned buffer; allocates nothing.
enum Multilateration {
    /// The weighted least-squares position, or `nil` when the fit is singular, does not converge
    /// in 50 iterations or lands outside `bounds` (the caller then falls back to the centroid).
    /// - Parameters:
    ///   - start: where to start the fit (the track's prediction); `nil`: the centroid.
    ///   - around: a prior on the position: its centre, and its spread (σ, metres, per axis); the
    ///     fit starts there (self-calibration solves a fix near where the grid filter placed it).
    static func solve(
        _ evidence: UnsafeBufferPointer<PositionEvidence>, height: Double, offsetPrior: Double,
        bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), start: (x: Double, y: Double)? = nil,
        around: (x: Double, y: Double, sigma: Double)? = nil
    ) -> BeaconPosition? {
        let model = Model(
            height: height, priorWeight: 1 / (offsetPrior * offsetPrior),
            place: around.map { ($0.x, $0.y) } ?? (0, 0), placeWeight: around.map { 1 / ($0.sigma * $0.sigma) } ?? 0)
        let start = around.map { (x: $0.x, y: $0.y) } ?? start
        // Each gateway's path-loss term at the current point and at a candidate: the logarithms
        // a cost computes are the linearisation's at the point it moves to.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * evidence.count) { terms in
            var here = UnsafeMutableBufferPointer(rebasing: terms[0..<evidence.count])
            var there = UnsafeMutableBufferPointer(rebasing: terms[evidence.count...])
            // Start from the track's prediction when the model fits there at least as well as at
            // the centroid: a few steps then suffice; otherwise from the centroid.
            let centre = centroid(evidence, height: height, strongest: 4)
            var x = centre.x
            var y = centre.y
            var b = 0.0
            var current = model.cost(evidence, x, y, b, terms: here)
            if let start {
                let cost = model.cost(evidence, start.x, start.y, b, terms: there)
                if cost <= current {
                    (x, y, current) = (start.x, start.y, cost)
                    swap(&here, &there)
                }
            }
            var converged = false
            for _ in 0..<50 {
                // Normal equations (JᵀWJ + prior) δ = −(JᵀW r + prior·b).
                let (normal, g, _) = model.linearise(evidence, x, y, b, terms: here)
                guard let step = normal.solve(-g.x, -g.y, -g.b) else { return nil }
                var scale = 1.0
                var taken = false
                for _ in 0..<12 {
                    let nx = x + scale * step.0
                    let ny = y + scale * step.1
                    let nb = b + scale * step.2
                    let next = model.cost(evidence, nx, ny, nb, terms: there)
                    if next <= current {
                        let moved = scale * (abs(step.0) + abs(step.1))
                        x = nx
                        y = ny
                        b = nb
                        current = next
                        swap(&here, &there)
                        taken = true
                        converged = moved < 1e-3
                        break
                    }
                    scale /= 2
                }
                if !taken { converged = true } // no descent left: a minimum, as far as steps go
                if converged { break }
            }
            guard converged, x >= bounds.minX, x <= bounds.maxX, y >= bounds.minY, y <= bounds.maxY else { return nil }
            // The covariance at the solution, scaled by the misfit per degree of freedom (three
            // unknowns; the prior is not a measurement) when that exceeds 1.
            let (normal, _, misfit) = model.linearise(evidence, x, y, b, terms: here)
            guard let inverse = normal.inverse() else { return nil }
            let degrees = Double(max(1, evidence.count - 3))
            let variance = (inverse.m00 + inverse.m11) * max(1, misfit / degrees)
            guard variance.isFinite, variance >= 0 else { return nil }
            return BeaconPosition(x: x, y: y, z: height, error: variance.squareRoot())
        }
    }

    /// The RSSI model at the tags' height: each gateway's residual and its derivatives.
    private struct Model {
        let height: Double
        let priorWeight: Double
        /// The position's prior: its centre and weight (1/σ²; 0: none).
        let place: (x: Double, y: Double)
        let placeWeight: Double

        /// A gateway's path-loss term at (x, y): 10·n·log10(ρ), ρ at least 0.5 m.
        @inline(__always)
        func term(_ e: PositionEvidence, _ x: Double, _ y: Double) -> Double {
            let dx = x - e.x
            let dy = y - e.y
            let dz = height - e.z
            let squared = dx * dx + dy * dy + dz * dz
            guard squared > 0.25 else { return PathLoss.loss(exponent: e.exponent, distance: 0.5) }
            // PathLoss.loss(exponent:distance:) of ρ, written out on purpose: 10·n·log10(ρ) =
            // 5·n·log10(ρ²) saves the square root in the solver's innermost loop.
            return 5 * e.exponent * logarithm10(squared)
        }

        /// A gateway's residual (dB) at (x, y, b), given its `term` there, and the residual's
        /// derivatives in x and y (in b it is −1).
        @inline(__always)
        func residual(_ e: PositionEvidence, _ x: Double, _ y: Double, _ b: Double, term: Double) -> (
            r: Double, jx: Double, jy: Double
        ) {
            let dx = x - e.x
            let dy = y - e.y
            let dz = height - e.z
            let squared = dx * dx + dy * dy + dz * dz
            let r = term - e.loss - b
            guard squared > 0.25 else { return (r, 0, 0) }
            let k = 10 * e.exponent / naturalLogarithmOf10
            return (r, k * dx / squared, k * dy / squared)
        }

        /// Σ w r² plus the offset's and the position's priors; each gateway's term at (x, y) into
        /// `terms`.
        func cost(
            _ evidence: UnsafeBufferPointer<PositionEvidence>, _ x: Double, _ y: Double, _ b: Double,
            terms: UnsafeMutableBufferPointer<Double>
        ) -> Double {
            let px = x - place.x
            let py = y - place.y
            var sum = b * b * priorWeight + placeWeight * (px * px + py * py)
            for (i, e) in evidence.enumerated() {
                let t = term(e, x, y)
                terms[i] = t
                let r = t - e.loss - b
                sum += e.weight * r * r
            }
            return sum
        }

        /// The normal matrix JᵀWJ + priors, the gradient JᵀW r + the priors', and the misfit Σ w r²,
        /// at (x, y, b) whose `terms` a cost has computed.
        func linearise(
            _ evidence: UnsafeBufferPointer<PositionEvidence>, _ x: Double, _ y: Double, _ b: Double,
            terms: UnsafeMutableBufferPointer<Double>
        ) -> (normal: Matrix3, gradient: (x: Double, y: Double, b: Double), misfit: Double) {
            var normal = Matrix3()
            normal.m00 = placeWeight
            normal.m11 = placeWeight
            normal.m22 = priorWeight
            var g = (x: placeWeight * (x - place.x), y: placeWeight * (y - place.y), b: b * priorWeight)
            var misfit = 0.0
            for (i, e) in evidence.enumerated() {
                let (r, jx, jy) = residual(e, x, y, b, term: terms[i])
                let w = e.weight
                normal.m00 += w * jx * jx
                normal.m01 += w * jx * jy
                normal.m02 -= w * jx
                normal.m11 += w * jy * jy
                normal.m12 -= w * jy
                normal.m22 += w
                g.x += w * jx * r
                g.y += w * jy * r
                g.b -= w * r
                misfit += w * r * r
            }
            return (normal, g, misfit)
        }
    }

    /// The centroid of the `strongest` gateways (by mean RSSI; the buffer is sorted strongest
    /// first), weighted by 1/d, at the tags' height. The error is the mean of their distances.
    static func centroid(_ evidence: UnsafeBufferPointer<PositionEvidence>, height: Double, strongest: Int) -> BeaconPosition {
        var sw = 0.0
        var sx = 0.0
        var sy = 0.0
        var sd = 0.0
        var count = 0.0
        for e in evidence.prefix(strongest) {
            let w = 1 / e.distance
            sw += w
            sx += w * e.x
            sy += w * e.y
            sd += e.distance
            count += 1
        }
        guard sw > 0 else { return BeaconPosition(x: 0, y: 0, z: height, error: .infinity) }
        return BeaconPosition(x: sx / sw, y: sy / sw, z: height, error: sd / count)
    }
}

/// A symmetric 3×3 matrix (upper triangle), for the normal equations.
struct Matrix3 {
    var m00 = 0.0, m01 = 0.0, m02 = 0.0, m11 = 0.0, m12 = 0.0, m22 = 0.0

    var determinant: Double {
        m00 * (m11 * m22 - m12 * m12) - m01 * (m01 * m22 - m12 * m02) + m02 * (m01 * m12 - m11 * m02)
    }

    /// The inverse (symmetric), or `nil` when singular.
    func inverse() -> Matrix3? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        var r = Matrix3()
        r.m00 = (m11 * m22 - m12 * m12) / det
        r.m01 = (m02 * m12 - m01 * m22) / det
        r.m02 = (m01 * m12 - m02 * m11) / det
        r.m11 = (m00 * m22 - m02 * m02) / det
        r.m12 = (m01 * m02 - m00 * m12) / det
        r.m22 = (m00 * m11 - m01 * m01) / det
        return r
    }

    /// Solves M·v = (a, b, c), or `nil` when singular.
    func solve(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double)? {
        guard let i = inverse() else { return nil }
        return (
            i.m00 * a + i.m01 * b + i.m02 * c, i.m01 * a + i.m11 * b + i.m12 * c, i.m02 * a + i.m12 * b + i.m22 * c
        )
    }
}
