/// The bookkeeping options of ``BeaconAlertStrategyBase``, common to every strategy built on it.
public struct StrategyBaseConfiguration: Hashable, Sendable {
    /// How long a beacon whose action is done must stay unseen (absent, or not counting as
    /// present) before it goes back to ``ActionStatus/waitingForAction``.
    public var maxTimeBeforeReset: Duration
    /// Also reset a done beacon as soon as its condition stops holding (off by default: the
    /// alert then fires again on the next time the condition holds).
    public var resetWhenConditionInvalid: Bool
    /// How long a beacon may stay unseen before its state is forgotten (bounded memory). The
    /// effective retention is never shorter than ``maxTimeBeforeReset`` nor than the
    /// strategy's own ``BeaconAlertStrategyBase/minimumRetention``; `nil` means just that.
    public var retention: Duration?

    /// Creates a configuration (defaults: reset after 60 s unseen, no reset on invalid condition).
    public init(
        maxTimeBeforeReset: Duration = .seconds(60), resetWhenConditionInvalid: Bool = false,
        retention: Duration? = nil
    ) {
        self.maxTimeBeforeReset = maxTimeBeforeReset
        self.resetWhenConditionInvalid = resetWhenConditionInvalid
        self.retention = retention
    }
}
