/// Whether a strategy's per-beacon state survives a restart of the process running it.
///
/// The pipeline saves what a strategy hands out with
/// ``BeaconAlertStrategy/collectStateChanges(into:)`` in the same transaction as the alert
/// engine's state, and restores it with ``BeaconAlertStrategy/restoreState(_:)`` on start, so
/// that a restart (even `kill -9`) neither repeats an alert nor loses one in the middle of a
/// visit.
public enum StrategyStateDurability: Hashable, Sendable {
    /// The strategy saves and restores all of its per-beacon state.
    case saved
    /// The strategy keeps no per-beacon state that a restart could lose.
    case notNeeded
    /// Some of the state is not saved; the text says what and how to fix it. A daemon with a
    /// state file warns about it at start.
    case incomplete(String)
}
