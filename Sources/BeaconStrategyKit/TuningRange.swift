import BeaconCore

/// The values of a parameter worth trying when an alert is tuned against the truth
/// (`beacond tune`): a strategy declares them with its parameters, typed like them, so that the
/// stock strategies and strategies written by users are tuned the same way.
///
/// The values are kept in the order given, without repeats; a tuner tries each of them (or a
/// sample of the combinations, when several parameters are tuned together).
public struct TuningRange: Hashable, Sendable {
    /// The values to try, each of the parameter's kind.
    public let values: [ParameterValue]

    /// A range of the given values (repeats dropped, order kept).
    public init(_ values: [ParameterValue]) {
        var seen = Set<ParameterValue>()
        self.values = values.filter { seen.insert($0).inserted }
    }

    /// Durations from `lower` to `upper` (included when it falls on a step), `step` apart.
    /// - Precondition: `step` is positive and `lower ≤ upper`.
    public static func durations(from lower: Duration, through upper: Duration, by step: Duration) -> TuningRange {
        precondition(step > .zero && lower <= upper, "a tuning range needs a positive step and lower ≤ upper")
        var values: [ParameterValue] = []
        var value = lower
        while value <= upper {
            values.append(.duration(value))
            value = value + step
        }
        return TuningRange(values)
    }

    /// Whole numbers from `lower` through `upper`, `step` apart.
    /// - Precondition: `step` is positive and `lower ≤ upper`.
    public static func integers(from lower: Int, through upper: Int, by step: Int = 1) -> TuningRange {
        precondition(step > 0 && lower <= upper, "a tuning range needs a positive step and lower ≤ upper")
        return TuningRange(stride(from: lower, through: upper, by: step).map { .integer($0) })
    }

    /// Numbers from `lower` through `upper`, `step` apart (the last within a millionth of a step of `upper`).
    /// - Precondition: `step` is positive and `lower ≤ upper`.
    public static func numbers(from lower: Double, through upper: Double, by step: Double) -> TuningRange {
        precondition(step > 0 && lower <= upper, "a tuning range needs a positive step and lower ≤ upper")
        let count = Int(((upper - lower) / step + 1e-6).rounded(.down))
        return TuningRange((0...count).map { .number(lower + Double($0) * step) })
    }

    /// The given proximity bands.
    public static func proximities(_ bands: [Proximity]) -> TuningRange {
        TuningRange(bands.map { .proximity($0) })
    }

    /// `false` and `true`.
    public static let booleans = TuningRange([.boolean(false), .boolean(true)])

    /// The values as configuration writes them, comma-separated (`30s, 45s, 1m`).
    public var configurationText: String { values.map(\.configurationText).joined(separator: ", ") }
}
