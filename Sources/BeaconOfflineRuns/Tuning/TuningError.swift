/// Why a tune could not run.
public enum TuningError: Error, CustomStringConvertible, Equatable {
    /// The strategy refused a candidate's values.
    case candidateRefused(candidate: String, reason: String)
    /// An input could not be run.
    case runFailed(run: String, reason: String)
    /// The truth has no visit of a beacon the alert matches.
    case noVisits(alertID: String)

    public var description: String {
        switch self {
        case .candidateRefused(let candidate, let reason):
            "the strategy refuses the candidate \(candidate): \(reason) (narrow the values with --vary NAME=v1,v2,…)"
        case .runFailed(let run, let reason): "the run \(run) failed: \(reason)"
        case .noVisits(let alertID):
            "the truth has no visit of a beacon alert '\(alertID)' matches, so there is nothing to score it against: "
                + "check its match:, the visit definition (--radius, --min-duration) or the truth file"
        }
    }
}
