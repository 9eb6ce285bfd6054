/// Why a pipeline could not be built from its configuration.
public enum PipelineError: Error, CustomStringConvertible, Sendable {
    /// The configuration file is invalid.
    case configuration(ConfigurationError)
    /// An alert's strategy key or parameters are invalid.
    case strategy(alertID: String, message: String)
    /// The ranging configuration is invalid.
    case ranging(String)
    /// The alert engine rejected the rules (policy, callbacks, maxPending) or could not load its state.
    case engine(String)

    public var description: String {
        switch self {
        case .configuration(let error): "\(error)"
        case .strategy(let alertID, let message): "alert '\(alertID)': \(message)"
        case .ranging(let message): "ranging configuration: \(message)"
        case .engine(let message): "alert engine: \(message)"
        }
    }
}
