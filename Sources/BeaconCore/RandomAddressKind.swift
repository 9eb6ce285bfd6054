/// What a random device address is, by its two most significant bits (Core Specification,
/// Vol 6, Part B, 1.3.2).
///
/// Only an advertiser whose address type is random (``AddressType/random``) has one; a public
/// address's top bits mean nothing.
public enum RandomAddressKind: Sendable, Hashable {
    /// `00`: a non-resolvable private address (changes, and cannot be followed).
    case nonResolvablePrivate
    /// `01`: a resolvable private address (RPA): a 24-bit `prand` and a 24-bit hash of it under
    /// the device's identity resolving key, so that whoever holds the key can tell the device.
    case resolvablePrivate
    /// `10`: reserved by the specification.
    case reserved
    /// `11`: a static random address (kept until the device restarts, or for its lifetime).
    case `static`

    /// The kind of random address `address` is.
    @inlinable
    public init(_ address: BluetoothAddress) {
        switch address.rawValue >> 46 {
        case 0b00: self = .nonResolvablePrivate
        case 0b01: self = .resolvablePrivate
        case 0b10: self = .reserved
        default: self = .static
        }
    }

    /// The name used in listings and JSON.
    public var name: String {
        switch self {
        case .nonResolvablePrivate: "non-resolvable"
        case .resolvablePrivate: "resolvable"
        case .reserved: "reserved"
        case .static: "static"
        }
    }
}

extension BluetoothAddress {
    /// Whether this is a resolvable private address, given the advertiser's address type: random,
    /// with the top two bits `01`. Public and identity addresses never are.
    @inlinable
    public func isResolvablePrivate(type: AddressType) -> Bool {
        type == .random && rawValue >> 46 == 0b01
    }

    /// An RPA's `prand`: the address's 24 most significant bits (its first three bytes as written).
    @inlinable
    public var resolvablePrivateRandomPart: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 24) }

    /// An RPA's `hash`: the address's 24 least significant bits (its last three bytes as written).
    @inlinable
    public var resolvablePrivateHash: UInt32 { UInt32(truncatingIfNeeded: rawValue & 0xFF_FFFF) }
}
