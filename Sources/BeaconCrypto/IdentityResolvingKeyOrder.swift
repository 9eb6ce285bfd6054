/// The order in which a written identity resolving key gives its 16 bytes.
///
/// The same key is written both ways by the tools people copy keys from, and a key read in the
/// wrong order resolves nothing, silently (ESPresense #602, #650, #699). Where a form does not
/// settle the order, both are tried against addresses actually heard (`beacond irk check`, and
/// the daemon, which keeps the order that resolves).
public enum IdentityResolvingKeyOrder: String, Sendable, Hashable, CaseIterable {
    /// Most significant byte first: the Core Specification's sample data, Home Assistant's Private
    /// BLE Device and ESPresense (`ec0234a3…7d9b`).
    case mostSignificantFirst = "msb-first"
    /// Least significant byte first: BlueZ's `info` files, Theengs and the Apple keychain
    /// (`9b7d390a…02ec`).
    case leastSignificantFirst = "lsb-first"

    /// Who writes keys this way, for messages.
    public var writtenBy: String {
        switch self {
        case .mostSignificantFirst: "most significant byte first, as Home Assistant and ESPresense write it"
        case .leastSignificantFirst: "least significant byte first, as BlueZ, Theengs and the Apple keychain write it"
        }
    }
}
