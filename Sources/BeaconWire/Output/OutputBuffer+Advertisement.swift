import BeaconCore

extension OutputBuffer {
    /// Appends the event type as the oracle writes it: `0x00`…`0x04` for legacy and directed
    /// reports, four digits (`0x0013`) for extended ones, the link-layer PDU type (`0x00`…`0x0f`)
    /// for sniffer PDUs.
    func append(eventTypeOf report: AdvertisingReport) {
        append(hex: UInt64(report.eventType), digits: report.kind == .extended ? 4 : 2)
    }

    /// Appends the name of `type` from ``AddressType/name`` without building a string.
    func append(addressTypeName type: AddressTypeName) {
        append(type.staticName)
    }
}

/// `AddressType` names as static strings (for ``OutputBuffer``).
struct AddressTypeName {
    let staticName: StaticString

    init(_ type: AddressType) {
        staticName = switch type {
        case .public: "public"
        case .random: "random"
        case .publicIdentity: "public_identity"
        case .randomIdentity: "random_identity"
        case .anonymous: "anonymous"
        }
    }
}

extension AdvertisingReportKind {
    /// ``name`` as a static string.
    var staticName: StaticString {
        switch self {
        case .legacy: "legacy"
        case .directed: "directed"
        case .extended: "extended"
        case .linkLayer: "link_layer"
        }
    }
}
