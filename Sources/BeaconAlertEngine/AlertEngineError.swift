/// Why an engine step failed. A failed step changes nothing and emits nothing; it may be retried.
public enum AlertEngineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A firing names an alert the configuration does not define.
    case unknownAlert(String)
    /// The state store could not read or write; the step was not applied.
    case storeFailed(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unknownAlert(let id):
            "no alert definition '\(id)'; the strategy layer fired an alert the engine was not configured with"
        case .storeFailed(let reason):
            "the alert state store failed (\(reason)); nothing was delivered or changed, retry the step"
        }
    }
}
