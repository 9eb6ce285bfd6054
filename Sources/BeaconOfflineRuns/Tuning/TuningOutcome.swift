import BeaconSimulator

/// How one candidate did: its score on the tuning share of the visits and on the held-back share.
public struct TuningOutcome: Hashable, Sendable {
    /// The candidate.
    public var candidate: TuningCandidate
    /// Its score on the visits it is ranked by.
    public var tuning: Scoring.Score
    /// Its score on the visits held back (not used for the ranking).
    public var heldBack: Scoring.Score
    /// Whether ``tuning`` meets the objective.
    public var meetsObjective: Bool
    /// Whether ``heldBack`` meets it too.
    public var heldBackMeetsObjective: Bool

    /// Whether anything was held back: a visit, or an alert for a held-back beacon.
    public var hasHeldBack: Bool { heldBack.visits > 0 || heldBack.alerts > 0 }
}
