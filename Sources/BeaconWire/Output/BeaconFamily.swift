/// A beacon frame family, for `beacond parse --only`.
public enum BeaconFamily: String, Hashable, Sendable, CaseIterable {
    /// Apple iBeacon (manufacturer data 0x004C, `02 15`).
    case iBeacon = "ibeacon"
    /// Eddystone (service data 0xFEAA, any frame type).
    case eddystone
    /// AltBeacon (manufacturer data starting `BE AC`).
    case altBeacon = "altbeacon"
}
