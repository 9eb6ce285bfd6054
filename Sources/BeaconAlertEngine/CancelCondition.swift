import BeaconCore

/// Something that cancels a pending alert (`cancelOn:` in configuration).
///
/// A cancelled alert gets a `cancelled` event with the reason; a repeating alert's series ends.
public enum CancelCondition: Hashable, Sendable, CustomStringConvertible {
    /// The alert's beacon left the region with this id (`{regionExit: lobby}`).
    case regionExit(String)
    /// The alert's beacon went away (its exit/away fact, `{beaconExit: true}`).
    case beaconExit
    /// The alert with this id was delivered for the same beacon (`{alertDelivered: other-id}`).
    case alertDelivered(String)
    /// A named external event happened (`{event: closing}`); it cancels every beacon's pending
    /// alert unless the event names a beacon.
    case event(String)

    /// True when `fact` cancels the pending alert `key`.
    public func matches(_ fact: EngineFact, key: AlertKey) -> Bool {
        switch (self, fact) {
        case (.regionExit(let region), .regionExit(let exited, let beacon)):
            region == exited && beacon == key.beacon
        case (.beaconExit, .beaconExit(let beacon)):
            beacon == key.beacon
        case (.alertDelivered(let alertID), .alertDelivered(let delivered, let beacon)):
            alertID == delivered && beacon == key.beacon && key.alertID != delivered
        case (.event(let name), .external(let happened, let beacon)):
            name == happened && (beacon == nil || beacon == key.beacon)
        default:
            false
        }
    }

    /// The configuration form, e.g. `regionExit: lobby`.
    public var description: String {
        switch self {
        case .regionExit(let region): "regionExit: \(region)"
        case .beaconExit: "beaconExit: true"
        case .alertDelivered(let alertID): "alertDelivered: \(alertID)"
        case .event(let name): "event: \(name)"
        }
    }
}
