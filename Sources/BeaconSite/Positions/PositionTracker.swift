import BeaconCore

/// Smooths one beacon's positions over cycles: a constant-velocity Kalman filter per axis.
///
/// A fix of uncertainty σ is taken with a measurement variance of max(σ²/2, 1 m²) per axis; a
/// cycle without a fix only predicts. The process noise (``PositioningConfiguration/tracking``,
/// m²/s³) says how briskly tags change speed: 0.5 suits people walking.
struct PositionTracker {
    private var x = Axis()
    private var y = Axis()
    private(set) var isTracking = false

    struct Axis {
        var p = 0.0
        var v = 0.0
        var pp = 0.0
        var pv = 0.0
        var vv = 0.0

        mutating func predict(dt: Double, q: Double) {
            p += v * dt
            // P = F P Fᵀ + Q, F = [[1, dt], [0, 1]], Q = q·[[dt⁴/4, dt³/2], [dt³/2, dt²]].
            let dt2 = dt * dt
            pp += 2 * dt * pv + dt2 * vv + q * dt2 * dt2 / 4
            pv += dt * vv + q * dt2 * dt / 2
            vv += q * dt2
        }

        mutating func update(_ z: Double, variance r: Double) {
            let s = pp + r
            let kp = pp / s
            let kv = pv / s
            let innovation = z - p
            p += kp * innovation
            v += kv * innovation
            let (oldPP, oldPV) = (pp, pv)
            pp -= kp * oldPP
            pv -= kp * oldPV
            vv -= kv * oldPV
        }
    }

    /// Forgets the track (the beacon left).
    mutating func reset() { isTracking = false }

    /// Where the track expects the beacon one cycle of `dt` on (`nil` before the first fix): the
    /// start of the next fit, a few centimetres from its answer while the beacon moves smoothly.
    func predicted(dt: Double) -> (x: Double, y: Double)? {
        isTracking ? (x.p + x.v * dt, y.p + y.v * dt) : nil
    }

    /// Advances one cycle of `dt` seconds with `fix` (if any); returns the smoothed position.
    mutating func step(fix: BeaconPosition?, dt: Double, processNoise q: Double, height: Double) -> BeaconPosition? {
        if isTracking {
            x.predict(dt: dt, q: q)
            y.predict(dt: dt, q: q)
            if let fix {
                let r = max(fix.error * fix.error / 2, 1)
                x.update(fix.x, variance: r)
                y.update(fix.y, variance: r)
            }
        } else {
            guard let fix, fix.error.isFinite else { return nil }
            let r = max(fix.error * fix.error / 2, 1)
            x = Axis(p: fix.x, v: 0, pp: r, pv: 0, vv: 1)
            y = Axis(p: fix.y, v: 0, pp: r, pv: 0, vv: 1)
            isTracking = true
        }
        return BeaconPosition(x: x.p, y: y.p, z: height, error: (x.pp + y.pp).squareRoot())
    }
}
