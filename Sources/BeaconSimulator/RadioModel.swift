import BeaconCore

/// How a transmission becomes an RSSI at a receiver, or is lost.
///
/// - Mean received power: log-distance path loss from the beacon's measured power at 1 m,
///   `P(d) = measuredPower − 10 · n · log10(d / 1 m)` (d clamped to at least `minimumDistance`).
/// - Log-normal shadowing: a normal deviate of `shadowingSigma` dB added per reception.
/// - Shadowing of a place (off by default): per gateway, a smooth field over the floor of
///   `placeShadowingSigma` dB correlated over `placeShadowingLength` metres (`ShadowingField`),
///   added to the mean power — the same at the same spot on every reception.
/// - Fast fading (off by default): Rayleigh or Rician power gain, in dB, added per reception.
/// - Packet loss: each reception independently lost with probability `packetLoss`.
/// - Collisions (pure ALOHA): two advertising events whose start times are closer than
///   `airtime` collide on every channel and are both lost at every receiver; only advertisers
///   whose mean power at the receiver reaches the sensitivity take part.
/// - Floors: `floorLoss` dB less per floor between beacon and receiver (on a scenario with floors).
/// - Sensitivity: receptions whose RSSI is below `sensitivity` are dropped.
///
/// The scanner's duty cycle is the gateway's (`ScanTiming`).
public struct RadioModel: Hashable, Sendable {
    /// Fast (multipath) fading.
    public enum Fading: Hashable, Sendable {
        /// No fast fading.
        case none
        /// Rayleigh fading (no line of sight): exponentially distributed power gain.
        case rayleigh
        /// Rician fading with factor K (line of sight power / scattered power, linear).
        case rician(k: Double)
    }

    /// Path-loss exponent n (2 in free space, 2.5–4 indoors).
    public var pathLossExponent: Double
    /// Standard deviation of log-normal shadowing, dB (0 disables it).
    public var shadowingSigma: Double
    /// Standard deviation of the shadowing that belongs to a place, dB (0, the default, disables
    /// it): see `ShadowingField`.
    public var placeShadowingSigma: Double = 0
    /// How far apart two spots' place shadowing stops being alike, metres (default 3).
    public var placeShadowingLength: Double = 3
    /// Fast fading model.
    public var fading: Fading
    /// Probability that a reception is lost for no modelled reason (0…1).
    public var packetLoss: Double
    /// Whether overlapping advertisements collide.
    public var collisions: Bool
    /// Time on air of one advertising PDU (376 µs: a 31-byte legacy PDU at 1M PHY).
    public var airtime: Duration
    /// Time between the PDUs on channels 37, 38 and 39 of one advertising event.
    public var channelSpacing: Duration
    /// Lowest RSSI the receiver reports, dBm.
    public var sensitivity: Int
    /// Distances below this are treated as this, metres (the model has no near field).
    public var minimumDistance: Double
    /// Loss through each floor between beacon and receiver, dB (default 15; only with floors).
    public var floorLoss: Double

    /// Creates a radio model; the defaults are an indoor office with line of sight.
    public init(
        pathLossExponent: Double = 2.0, shadowingSigma: Double = 2.0, fading: Fading = .none,
        packetLoss: Double = 0, collisions: Bool = true, airtime: Duration = .microseconds(376),
        channelSpacing: Duration = .microseconds(500), sensitivity: Int = -100,
        minimumDistance: Double = 0.1, floorLoss: Double = 15
    ) {
        self.pathLossExponent = pathLossExponent
        self.shadowingSigma = shadowingSigma
        self.fading = fading
        self.packetLoss = packetLoss
        self.collisions = collisions
        self.airtime = airtime
        self.channelSpacing = channelSpacing
        self.sensitivity = sensitivity
        self.minimumDistance = minimumDistance
        self.floorLoss = floorLoss
    }

    /// The mean received power at `distance` metres from a beacon whose RSSI at 1 m is
    /// `measuredPower`, dBm (no shadowing, no fading).
    @inlinable
    public func meanRSSI(measuredPower: Int, distance: Double) -> Double {
        PathLoss.rssi(
            measuredPower: Double(measuredPower), exponent: pathLossExponent, distance: max(distance, minimumDistance))
    }

    /// The distance at which the mean received power falls to the sensitivity, metres.
    public func range(measuredPower: Int) -> Double {
        PathLoss.distance(
            measuredPower: Double(measuredPower), exponent: pathLossExponent, rssi: Double(sensitivity))
    }

    /// One received power draw around `mean`: shadowing plus fading, dBm (not yet rounded).
    @inlinable
    public func sampleRSSI(mean: Double, using random: inout SplitMix64) -> Double {
        var rssi = mean
        if shadowingSigma > 0 { rssi += shadowingSigma * random.nextGaussian() }
        switch fading {
        case .none:
            break
        case .rayleigh:
            // |h|² ~ Exp(1): gain in dB = 10·log10(−ln U).
            rssi += 10 * logarithm10(-naturalLogarithm(random.nextOpenUnit()))
        case .rician(let k):
            let los = (k / (k + 1)).squareRoot()
            let scatter = (1 / (2 * (k + 1))).squareRoot()
            let i = los + scatter * random.nextGaussian()
            let q = scatter * random.nextGaussian()
            rssi += 10 * logarithm10(max(i * i + q * q, 1e-12))
        }
        return rssi
    }
}
