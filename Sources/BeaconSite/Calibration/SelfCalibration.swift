/// How a hub calibrates its radio model from its own traffic (`hub.calibration`).
///
/// Every ``interval`` the hub fits the path-loss exponent, the tags' height and each gateway's
/// receive offset to the measurements in its window — beacons heard by several gateways at once,
/// and anchors (reference tags, gateways that advertise) heard at known distances — and applies
/// the fit only when it predicts the held-back share of the window better than the model in use.
/// Values set by hand (`hub.position.pathLossExponent`, `tagHeight`, a gateway's `rssiOffset`)
/// are never changed.
public struct SelfCalibration: Hashable, Sendable {
    /// Whether the hub calibrates at all (default `true`).
    public var enabled: Bool
    /// How often it refits, in hub time (default 30 s).
    public var interval: Duration
    /// Fixes kept for fitting, the newest (default 1,200: 20 minutes of one beacon, or a minute of
    /// twenty).
    public var window: Int
    /// Fixes needed before the first fit (default 200: a short walk is too little to tell a site's model from its noise).
    public var minimumFixes: Int
    /// How much better, as a share of the held-back misfit, a fit must predict before it is
    /// applied (default 0.03).
    public var requiredGain: Double
    /// The exponent's prior: its centre is the configured exponent, this its spread (default 0.75).
    public var exponentPrior: Double
    /// The exponent's bounds (default 1.0 to 4.0): a fit that ends on one is degenerate.
    public var exponentBounds: ClosedRange<Double>
    /// The receive offsets' prior spread, dB (default 4).
    public var offsetPrior: Double
    /// The receive offsets' bound, dB either way (default 12): a fit that ends on it is degenerate.
    public var offsetBound: Double
    /// How far, either way, a gateway's own exponent may depart from the site's before it costs
    /// as much as one misfit (default 0.3).
    public var gatewayExponentPrior: Double
    /// A gateway's own exponent's bound, either way from the site's (default 1): a fit that ends on
    /// it is degenerate.
    public var gatewayExponentBound: Double
    /// Measurements of anchors a gateway needs (over distances four to one apart) before its own
    /// exponent is fitted (default 100); without them it has the site's.
    public var gatewayExponentMeasurements: Int
    /// The path-loss exponent was set by hand: it stays as given (and so do the gateways' own).
    public var fixedExponent: Bool
    /// The tags' height was set by hand: it stays as given.
    public var fixedTagHeight: Bool
    /// Gateways (layout indices) whose `rssiOffset` was set by hand: their receive offset stays 0
    /// on top of it.
    public var fixedOffsets: Set<Int>

    /// Creates the settings.
    public init(
        enabled: Bool = true, interval: Duration = .seconds(30), window: Int = 1200, minimumFixes: Int = 200,
        requiredGain: Double = 0.03, exponentPrior: Double = 0.75, exponentBounds: ClosedRange<Double> = 1.0...4.0,
        offsetPrior: Double = 4, offsetBound: Double = 12, gatewayExponentPrior: Double = 0.3,
        gatewayExponentBound: Double = 1, gatewayExponentMeasurements: Int = 100, fixedExponent: Bool = false,
        fixedTagHeight: Bool = false, fixedOffsets: Set<Int> = []
    ) {
        self.gatewayExponentPrior = gatewayExponentPrior
        self.gatewayExponentBound = gatewayExponentBound
        self.gatewayExponentMeasurements = gatewayExponentMeasurements
        self.enabled = enabled
        self.interval = interval
        self.window = window
        self.minimumFixes = minimumFixes
        self.requiredGain = requiredGain
        self.exponentPrior = exponentPrior
        self.exponentBounds = exponentBounds
        self.offsetPrior = offsetPrior
        self.offsetBound = offsetBound
        self.fixedExponent = fixedExponent
        self.fixedTagHeight = fixedTagHeight
        self.fixedOffsets = fixedOffsets
    }
}
