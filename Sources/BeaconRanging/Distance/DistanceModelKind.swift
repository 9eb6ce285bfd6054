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
