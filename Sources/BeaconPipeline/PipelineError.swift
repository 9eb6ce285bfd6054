/// Why a pipeline could not be built, or could not take an input.
public enum PipelineError: Error, CustomStringConvertible, Sendable {
    /// An alert's strategy key or parameters are invalid.
    case strategy(alertID: String, message: String)
    /// The ranging configuration is invalid.
    case ranging(String)
    /// The alert engine rejected the rules (policy, callbacks, maxPending) or could not load its state.
    case engine(String)
    /// An input this pipeline does not take: gateways' reports sent to a gateway's pipeline,
    /// packets or sightings sent to a site hub's.
    case input(String)
    /// The pipeline's runner has stopped: it takes no more inputs.
    case stopped

    public var description: String {
        switch self {
        case .strategy(let alertID, let message): "alert '\(alertID)': \(message)"
        case .ranging(let message): "ranging configuration: \(message)"
        case .engine(let message): "alert engine: \(message)"
        case .input(let message): "wrong input: \(message)"
        case .stopped: "the pipeline has stopped and takes no more inputs"
        }
    }
}
