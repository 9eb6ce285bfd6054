import BeaconCore

extension AddressType {
    /// ``name`` as a static string, for ``OutputBuffer``.
    var staticName: StaticString {
        switch self {
        case .public: "public"
        case .random: "random"
        case .publicIdentity: "public_identity"
        case .randomIdentity: "random_identity"
        case .anonymous: "anonymous"
        }
    }
}
