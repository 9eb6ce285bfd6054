import BeaconCore

/// A fact from outside a strategy that may cancel pending alerts (see ``CancelCondition``).
public enum EngineFact: Hashable, Sendable, CustomStringConvertible {
    /// A beacon left a region (from the ranging loop's `RegionEvent`).
    case regionExit(regionID: String, beacon: BeaconID)
    /// A beacon exited or went away.
    case beaconExit(BeaconID)
    /// An alert was delivered for a beacon (the engine raises this itself on every delivery).
    case alertDelivered(alertID: String, beacon: BeaconID)
    /// A named external event, for every beacon (`beacon == nil`) or for one.
    case external(name: String, beacon: BeaconID?)

    /// A region event as a fact: exits only (entries cancel nothing).
    public init?(_ event: RegionEvent) {
        guard event.kind == .exit else { return nil }
        self = .regionExit(regionID: event.regionID, beacon: event.beacon)
    }

    /// Why an alert it cancels was cancelled, as the `cancelled` event's message says it.
    public var description: String {
        switch self {
        case .regionExit(let region, _): "cancelled: the beacon left region '\(region)'"
        case .beaconExit: "cancelled: the beacon went away"
        case .alertDelivered(let alertID, _): "cancelled: alert '\(alertID)' was delivered for this beacon"
        case .external(let name, _): "cancelled: event '\(name)' happened"
        }
    }
}
