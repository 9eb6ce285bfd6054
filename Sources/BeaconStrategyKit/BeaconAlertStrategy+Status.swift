import BeaconCore

extension BeaconAlertStrategy {
    /// Reports nothing: a strategy that keeps its own state says where its beacons stand by
    /// implementing this (``BeaconAlertStrategyBase`` does it for its subclasses).
    public func collectStatuses(now: Timestamp, into statuses: inout [StrategyBeaconStatus]) {}

    /// False: the strategy does not say where its beacons stand.
    public var reportsStatuses: Bool { false }

    /// The beacon's entry among ``collectStatuses(now:into:)``'s (a strategy that can find one
    /// beacon's state directly does better by implementing it).
    public func status(of id: BeaconID, now: Timestamp) -> StrategyBeaconStatus? {
        guard reportsStatuses else { return nil }
        var statuses: [StrategyBeaconStatus] = []
        collectStatuses(now: now, into: &statuses)
        return statuses.first { $0.beacon == id }
    }
}
