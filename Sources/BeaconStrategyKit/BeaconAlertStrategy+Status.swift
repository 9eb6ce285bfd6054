import BeaconCore

extension BeaconAlertStrategy {
    /// Reports nothing: a strategy that keeps its own state says where its beacons stand by
    /// implementing this (``BeaconAlertStrategyBase`` does it for its subclasses).
    public func collectStatuses(now: Timestamp, into statuses: inout [StrategyBeaconStatus]) {}

    /// False: the strategy does not say where its beacons stand.
    public var reportsStatuses: Bool { false }
}
