import BeaconCore

/// One beacon's saved state in one strategy, as a strategy hands it to the store and takes it
/// back after a restart (see ``BeaconAlertStrategy/collectStateChanges(into:)``).
public struct StrategyStateEntry: Hashable, Sendable {
    /// Which part of the strategy the state belongs to: `""` for the strategy itself; a
    /// composite prefixes its members' parts (`"0/"`, `"inner/"` …) so that each is restored into
    /// the member that saved it.
    public var part: String
    /// The beacon.
    public var beacon: BeaconID
    /// The encoded state, or `nil` when the strategy forgot the beacon (the saved state is removed).
    public var state: [UInt8]?

    /// Creates an entry.
    public init(part: String = "", beacon: BeaconID, state: [UInt8]?) {
        self.part = part
        self.beacon = beacon
        self.state = state
    }

    /// The same entry under `prefix` (a composite adding its member's place).
    public func prefixed(by prefix: String) -> StrategyStateEntry {
        StrategyStateEntry(part: prefix + part, beacon: beacon, state: state)
    }
}
