/// Saved strategy state that cannot be restored.
public enum StrategyStateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The saved bytes are not in the form this strategy writes (another version, or damaged).
    case unreadable(strategy: String, beacon: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let strategy, let beacon, let reason):
            "saved state of \(beacon) in strategy \(strategy) cannot be read (\(reason)); it starts afresh"
        }
    }
}
