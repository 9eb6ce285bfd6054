/// What a tune found: every candidate's outcome, best first under the objective.
public struct TuningReport: Sendable {
    /// The tuned alert.
    public var alertID: String
    /// The objective the ranking follows.
    public var objective: TuningObjective
    /// The runs' names, in order.
    public var runs: [String]
    /// The share of (run, beacon) pairs held back.
    public var heldBackShare: Double
    /// Every candidate's outcome, best first.
    public var outcomes: [TuningOutcome]

    /// The best candidate that meets the objective, if any does.
    public var winner: TuningOutcome? { outcomes.first { $0.meetsObjective } }

    /// The alert as configured (candidate 1).
    public var configured: TuningOutcome? { outcomes.first { $0.candidate.number == 1 } }
}
