/// Where a beacon stands with respect to a strategy's action (its alert).
///
/// A beacon starts `waitingForAction`; once its alert has fired it is `actionDone` and stays so
/// until the strategy resets it (see ``StrategyBaseConfiguration/maxTimeBeforeReset``).
public enum ActionStatus: UInt8, Hashable, Sendable, Codable {
    /// The strategy may fire for this beacon as soon as its condition holds.
    case waitingForAction
    /// The strategy fired for this beacon and will not fire again until a reset.
    case actionDone
}
