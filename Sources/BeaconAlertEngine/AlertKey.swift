import BeaconCore

/// One alert definition applied to one beacon: the unit the engine keeps state for (at most one
/// pending delivery, one history).
public struct AlertKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The alert definition's id.
    public var alertID: String
    /// The beacon.
    public var beacon: BeaconID

    /// Creates a key.
    public init(alertID: String, beacon: BeaconID) {
        self.alertID = alertID
        self.beacon = beacon
    }

    /// Orders by alert id, then beacon.
    public static func < (a: AlertKey, b: AlertKey) -> Bool {
        (a.alertID, a.beacon) < (b.alertID, b.beacon)
    }

    /// `alertID@beacon`.
    public var description: String { "\(alertID)@\(beacon)" }
}
