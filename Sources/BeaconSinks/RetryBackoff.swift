/// Exponential backoff with jitter: the wait before retry `n` (1-based) is
/// `min(maximum, initial × multiplierⁿ⁻¹)`, scaled by a random factor in `1 ± jitter`.
public struct RetryBackoff: Hashable, Sendable {
    /// The wait before the first retry.
    public var initial: Duration
    /// The growth per failed attempt.
    public var multiplier: Double
    /// The longest wait.
    public var maximum: Duration
    /// The relative spread (0 = none, 0.2 = ±20 %), so that many gateways do not retry in step.
    public var jitter: Double

    /// Creates a policy (defaults: 1 s doubling up to 5 min, ±20 %).
    public init(
        initial: Duration = .seconds(1), multiplier: Double = 2, maximum: Duration = .seconds(300),
        jitter: Double = 0.2
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The wait before retry `attempt` (1 for the first retry), given `unit`, a random number in `0..<1`
    /// (0.5 gives the wait without jitter).
    public func delay(attempt: Int, unit: Double) -> Duration {
        let initialSeconds = Self.seconds(initial)
        let maximumSeconds = Self.seconds(maximum)
        var base = initialSeconds
        for _ in 1..<max(attempt, 1) {
            base *= multiplier
            if base >= maximumSeconds { break }
        }
        base = min(base, maximumSeconds)
        let factor = 1 + jitter * (2 * unit - 1)
        return .nanoseconds(Int64((base * factor * 1e9).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
