import BeaconCore

extension BeaconAlertStrategy {
    /// Default: region events are ignored.
    public func observe(_ event: RegionEvent) {}

    /// Default: no region.
    public var regionsObserved: [String] { [] }

    /// Default: false (the strategy may remember beacons).
    public var isIdle: Bool { false }

    /// Default: the state is not saved.
    public var stateDurability: StrategyStateDurability {
        .incomplete(
            "\(type(of: self)) does not save its per-beacon state, so a restart may repeat or lose an alert: "
                + "implement stateDurability, collectStateChanges(into:) and restoreState(_:), subclass "
                + "BeaconAlertStrategyBase with a Codable value, or return .notNeeded if it keeps no state")
    }

    /// Default: nothing to save.
    public func collectStateChanges(into entries: inout [StrategyStateEntry]) {}

    /// Default: nothing to restore.
    public func restoreState(_ entries: [StrategyStateEntry]) throws {}
}
