import BeaconPipeline

/// Why the gateway cannot start.
public enum GatewayError: Error, CustomStringConvertible, Sendable {
    /// The configuration has no `source:`.
    case noSource(file: String)
    /// The source cannot be opened (a scenario or capture file, an adapter name).
    case source(String)
    /// A sink cannot be set up (a file that cannot be opened, a bad URL).
    case sink(name: String, message: String)
    /// The state file cannot be opened or migrated.
    case state(path: String, message: String)
    /// The pipeline cannot be built from the alerts.
    case pipeline(PipelineError)
    /// The candidate alert set of `shadow:` cannot be read or run.
    case shadow(path: String, message: String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .noSource(let file): "\(file): no 'source:'; add e.g. source: hci:hci0, replay:FILE or simulate:FILE"
        case .source(let message): "source: \(message)"
        case .sink(let name, let message): "sink '\(name)': \(message)"
        case .state(let path, let message): "state file \(path): \(message)"
        case .pipeline(let error): "\(error)"
        case .shadow(let path, let message):
            "shadow: \(path): \(message) (fix the candidate, or remove shadow: to run without one)"
        }
    }
}
