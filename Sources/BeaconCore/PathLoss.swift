/// The log-distance path-loss model, the one formula the ranging, the site hub and the simulator
/// share: `RSSI(d) = P − 10·n·log10 d`, with `P` the measured power (the RSSI at 1 m, dBm) and
/// `n` the path-loss exponent (2 in free space; indoors typically 1.5–4).
public enum PathLoss {
    /// The loss between 1 m and `distance` metres, dB: `10·n·log10 d` (negative closer than 1 m).
    @inlinable
    public static func loss(exponent: Double, distance: Double) -> Double {
        10 * exponent * logarithm10(distance)
    }

    /// The mean RSSI at `distance` metres from a beacon whose RSSI at 1 m is `measuredPower`, dBm.
    @inlinable
    public static func rssi(measuredPower: Double, exponent: Double, distance: Double) -> Double {
        measuredPower - loss(exponent: exponent, distance: distance)
    }

    /// The distance, metres, at which the mean RSSI is `rssi`: `10^((P − RSSI) / (10·n))`, the
    /// inverse of ``rssi(measuredPower:exponent:distance:)``.
    @inlinable
    public static func distance(measuredPower: Double, exponent: Double, rssi: Double) -> Double {
        powerOf10((measuredPower - rssi) / (10 * exponent))
    }
}
