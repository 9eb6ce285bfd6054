/// The type of an advertiser's address as an HCI advertising report gives it.
///
/// Values follow the HCI `Address_Type` of LE (Extended) Advertising Reports; link-layer sniffer
/// PDUs only say public or random (the TxAdd bit).
public enum AddressType: UInt8, Hashable, Sendable, CaseIterable {
    /// Public device address.
    case `public` = 0x00
    /// Random device address (static, resolvable or non-resolvable private).
    case random = 0x01
    /// Public identity address (resolved by the controller from an RPA).
    case publicIdentity = 0x02
    /// Random (static) identity address (resolved by the controller from an RPA).
    case randomIdentity = 0x03
    /// No address provided (anonymous advertisement, extended reports only).
    case anonymous = 0xFF

    /// The name used in CSV and JSON output.
    public var name: String { staticName.description }

    /// ``name`` as a static string (writers copy its bytes without building a `String`).
    public var staticName: StaticString {
        switch self {
        case .public: "public"
        case .random: "random"
        case .publicIdentity: "public_identity"
        case .randomIdentity: "random_identity"
        case .anonymous: "anonymous"
        }
    }
}
