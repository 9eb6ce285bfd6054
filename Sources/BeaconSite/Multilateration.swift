import BeaconCore

/// Position estimates from gateways' distances: weighted least squares in the horizontal plane
/// at the tags' height, solved by Gauss–Newton with Levenberg damping, started from a weighted
/// centroid; and the weighted centroid itself as the fallback for fewer gateways.
///
/// Works on a caller-owned evidence buffer; allocates nothing.
enum Multilateration {
    /// The weighted least-squares position: minimises Σ wᵢ (‖p − gᵢ‖ − dᵢ)² with wᵢ = 1/σᵢ².
    /// `evidence` needs at least 3 entries. The error is √(trace of the covariance), scaled by
    /// the fit's residual variance when that is larger than the stated uncertainties imply.
    static func solve(
        _ evidence: UnsafeBufferPointer<PositionEvidence>, height: Double, start: (x: Double, y: Double)? = nil,
        bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) -> BeaconPosition {
        let centroid = weightedCentroid(evidence, height: height)
        var x = start?.x ?? centroid.x
        var y = start?.y ?? centroid.y
        var lambda = 1e-3
        var cost = weightedCost(evidence, x: x, y: y, height: height)
        var normal = (a: 0.0, b: 0.0, c: 0.0)
        for _ in 0..<12 {
            // Normal equations (Jᵀ W J) δ = −Jᵀ W r, with J the unit vectors from the gateways.
            var a = 0.0, b = 0.0, c = 0.0, gx = 0.0, gy = 0.0
            for e in evidence {
                let dx = x - e.x
                let dy = y - e.y
                let dz = height - e.z
                let range = max(1e-6, (dx * dx + dy * dy + dz * dz).squareRoot())
                let w = 1 / (e.sigma * e.sigma)
                let jx = dx / range
                let jy = dy / range
                let r = range - e.distance
                a += w * jx * jx
                b += w * jx * jy
                c += w * jy * jy
                gx += w * jx * r
                gy += w * jy * r
            }
            normal = (a, b, c)
            var accepted = false
            for _ in 0..<6 {
                let da = a * (1 + lambda) + 1e-9
                let dc = c * (1 + lambda) + 1e-9
                let det = da * dc - b * b
                guard det.isFinite, abs(det) > 1e-18 else { break }
                let stepX = -(dc * gx - b * gy) / det
                let stepY = -(da * gy - b * gx) / det
                let nx = min(max(x + stepX, bounds.minX), bounds.maxX)
                let ny = min(max(y + stepY, bounds.minY), bounds.maxY)
                let newCost = weightedCost(evidence, x: nx, y: ny, height: height)
                if newCost <= cost {
                    let moved = abs(nx - x) + abs(ny - y)
                    x = nx
                    y = ny
                    cost = newCost
                    lambda = max(1e-6, lambda / 4)
                    accepted = moved > 1e-3
                    break
                }
                lambda *= 8
            }
            if !accepted { break }
        }
        let degrees = Double(max(1, evidence.count - 2))
        let scale = max(1, cost / degrees)
        let det = normal.a * normal.c - normal.b * normal.b
        let variance = det > 1e-18 ? (normal.a + normal.c) / det * scale : centroid.error * centroid.error
        return BeaconPosition(x: x, y: y, z: height, error: variance.squareRoot())
    }

    /// The centroid of the gateways weighted by 1/d² (a closer gateway pulls harder), at the
    /// tags' height. The error is the weighted mean horizontal distance the gateways put the
    /// beacon at (one gateway: its own distance).
    static func weightedCentroid(_ evidence: UnsafeBufferPointer<PositionEvidence>, height: Double) -> BeaconPosition {
        var sw = 0.0, sx = 0.0, sy = 0.0, sd = 0.0
        for e in evidence {
            let dz = height - e.z
            let horizontal = max(0.25, (max(0, e.distance * e.distance - dz * dz)).squareRoot())
            let w = 1 / (horizontal * horizontal)
            sw += w
            sx += w * e.x
            sy += w * e.y
            sd += w * horizontal
        }
        guard sw > 0 else { return BeaconPosition(x: 0, y: 0, z: height, error: .infinity) }
        return BeaconPosition(x: sx / sw, y: sy / sw, z: height, error: sd / sw)
    }

    private static func weightedCost(_ evidence: UnsafeBufferPointer<PositionEvidence>, x: Double, y: Double, height: Double) -> Double {
        var cost = 0.0
        for e in evidence {
            let dx = x - e.x
            let dy = y - e.y
            let dz = height - e.z
            let r = (dx * dx + dy * dy + dz * dz).squareRoot() - e.distance
            cost += r * r / (e.sigma * e.sigma)
        }
        return cost
    }
}
