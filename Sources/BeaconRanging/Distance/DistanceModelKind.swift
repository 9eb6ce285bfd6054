import BeaconCore

/// Which distance model the ranging loop uses: the configuration's choice.
public enum DistanceModelKind: Sendable {
    /// ``LogDistanceModel``.
    case logDistance(LogDistanceModel)
    /// ``CurveFittedModel``.
    case curveFitted(CurveFittedModel)
    /// Any other model.
    case custom(any DistanceModel)

    /// `log-distance`, `curve-fitted` or `custom`.
    public var name: String {
        switch self {
        case .logDistance: "log-distance"
        case .curveFitted: "curve-fitted"
        case .custom: "custom"
        }
    }

    /// The built-in model named `log-distance` or `curve-fitted`, with its defaults.
    public init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "log-distance": self = .logDistance(LogDistanceModel())
        case "curve-fitted": self = .curveFitted(CurveFittedModel())
        default: return nil
        }
    }
}

extension DistanceModelKind: DistanceModel {
    public func distance(rssi: Double, measuredPower: Double, pathLossExponent: Double?) -> Double {
        switch self {
        case .logDistance(let m): m.distance(rssi: rssi, measuredPower: measuredPower, pathLossExponent: pathLossExponent)
        case .curveFitted(let m): m.distance(rssi: rssi, measuredPower: measuredPower, pathLossExponent: pathLossExponent)
        case .custom(let m): m.distance(rssi: rssi, measuredPower: measuredPower, pathLossExponent: pathLossExponent)
        }
    }
}

extension DistanceModelKind {
    /// The log-distance model's exponent, nil for the other models: read once a cycle, so that
    /// the per-beacon path does not copy the enum (which retains a custom model).
    var logDistanceExponent: Double? {
        if case .logDistance(let model) = self { model.exponent } else { nil }
    }

    /// The distance at `rssi`, and how far it moves when the RSSI falls by `sigma` dB (the
    /// ranging loop's accuracy). With `logExponent` (``logDistanceExponent``) one `exp` gives the
    /// factor `10^(σ / (10·n))` instead of a second distance.
    @inline(__always)
    func distanceAndSpread(
        rssi: Double, measuredPower: Double, pathLossExponent: Double?, sigma: Double, logExponent: Double?
    ) -> (distance: Double, spread: Double) {
        if let logExponent {
            let n = pathLossExponent ?? logExponent
            let d = PathLoss.distance(measuredPower: measuredPower, exponent: n, rssi: rssi)
            return (d, d * (powerOf10(sigma / (10 * n)) - 1))
        }
        let d = distance(rssi: rssi, measuredPower: measuredPower, pathLossExponent: pathLossExponent)
        let farther = distance(rssi: rssi - sigma, measuredPower: measuredPower, pathLossExponent: pathLossExponent)
        return (d, abs(farther - d))
    }
}
