import BeaconCore

/// Distance thresholds of the proximity bands, with hysteresis.
///
/// Without hysteresis a beacon is `immediate` below `immediateBelow`, `near` below `nearBelow`
/// and `far` beyond. A beacon already in a band only moves to a *closer* band once the distance
/// drops below that band's threshold × (1 − `enterMargin`), and only moves to a *farther* band
/// once the distance exceeds the threshold × (1 + `leaveMargin`). Margins are fractions of the
/// threshold because distance errors grow with distance. A beacon sitting on a threshold
/// therefore keeps its band. The first band (from `unknown`) uses the plain thresholds.
public struct ProximityBands: Hashable, Sendable {
    /// Upper distance of `immediate` (m). Default 0.5.
    public var immediateBelow: Double
    /// Upper distance of `near` (m). Default 3.
    public var nearBelow: Double
    /// Fraction below a threshold needed to move into the closer band. Default 0.1.
    public var enterMargin: Double
    /// Fraction above a threshold needed to move out to the farther band. Default 0.1.
    public var leaveMargin: Double

    /// Defaults: immediate < 0.5 m, near < 3 m, 10 % margins each way.
    public init(
        immediateBelow: Double = 0.5, nearBelow: Double = 3.0,
        enterMargin: Double = 0.1, leaveMargin: Double = 0.1
    ) {
        self.immediateBelow = immediateBelow
        self.nearBelow = nearBelow
        self.enterMargin = enterMargin
        self.leaveMargin = leaveMargin
    }

    /// The band for `distance` given the `current` band; `unknown` when there is no distance.
    public func proximity(distance: Double?, current: Proximity) -> Proximity {
        guard let d = distance, d.isFinite else { return .unknown }
        if current == .unknown { return band(d, scale: 1) }
        let closer = band(d, scale: 1 - enterMargin)
        if closer < current { return closer }
        let farther = bandBeyond(d, scale: 1 + leaveMargin)
        if farther > current { return farther }
        return current
    }

    /// The band counting thresholds `t·scale` that `d` reaches (`d ≥ t·scale`).
    private func band(_ d: Double, scale: Double) -> Proximity {
        d < immediateBelow * scale ? .immediate : d < nearBelow * scale ? .near : .far
    }

    /// The band counting thresholds `t·scale` that `d` strictly exceeds.
    private func bandBeyond(_ d: Double, scale: Double) -> Proximity {
        d > nearBelow * scale ? .far : d > immediateBelow * scale ? .near : .immediate
    }
}
