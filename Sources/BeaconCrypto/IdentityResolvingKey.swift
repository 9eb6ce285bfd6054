import BeaconCore
import Crypto
import CryptoExtras

/// A device's identity resolving key (IRK): the 128-bit secret that lets its owner's other devices
/// (and beacond) recognise the resolvable private addresses it advertises from, which change every
/// ~15 minutes.
///
/// The bytes are held in the Core Specification's order: most significant first, as the
/// specification's sample data, Home Assistant's Private BLE Device and ESPresense write keys
/// (`ec0234a3…7d9b`). BlueZ's `info` files, Theengs and the Apple keychain hold the same key
/// reversed; ``IdentityResolvingKeyText`` reads every form.
///
/// An IRK is a secret: its description never shows the bytes, and it is not `Codable`.
public struct IdentityResolvingKey: Sendable, CustomStringConvertible, CustomReflectable {
    /// The key's size, in bytes.
    public static let byteCount = 16

    private let key: SymmetricKey

    /// A key of these 16 bytes, most significant first; `nil` for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        key = SymmetricKey(data: Array(bytes))
    }

    /// Whether this key's bytes are `bytes` (most significant first), compared in time that
    /// depends only on the count: how a key a node names (ESPresense's `irk:` ids) is matched to an
    /// enrolled one without telling a prober how much of it was right.
    public func hasBytes(_ bytes: some Collection<UInt8>) -> Bool {
        key.withUnsafeBytes { own in
            guard own.count == bytes.count else { return false }
            var difference: UInt8 = 0
            for (a, b) in zip(own, bytes) { difference |= a ^ b }
            return difference == 0
        }
    }

    /// The random address hash function `ah` (Core Specification, Vol 3, Part H, 2.2.2): AES-128
    /// under this key of `prand` (its low 24 bits) padded with 104 zero bits in front, keeping the
    /// result's low 24 bits.
    public func hash(prand: UInt32) -> UInt32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { block in
            block.initialize(repeating: 0)
            block[13] = UInt8(truncatingIfNeeded: prand >> 16)
            block[14] = UInt8(truncatingIfNeeded: prand >> 8)
            block[15] = UInt8(truncatingIfNeeded: prand)
            var permuted = block
            do {
                try AES.permute(&permuted, key: key)
            } catch {
                // Only a block that is not 16 bytes or a key that is not 128 bits makes it throw.
                preconditionFailure("AES-128 of one block failed: \(error)")
            }
            return UInt32(block[13]) << 16 | UInt32(block[14]) << 8 | UInt32(block[15])
        }
    }

    /// Whether `address` is a resolvable private address of this key: a random address with the top
    /// two bits `01` whose low 24 bits are ``hash(prand:)`` of its high 24. Public, static and
    /// non-resolvable addresses are never hashed and never resolve.
    public func resolves(_ address: BluetoothAddress, type: AddressType) -> Bool {
        guard address.isResolvablePrivate(type: type) else { return false }
        return hash(prand: address.resolvablePrivateRandomPart) == address.resolvablePrivateHash
    }

    /// A resolvable private address of this key from a random number (for simulated phones): its
    /// low 22 bits become `prand`'s random part (the specification requires them not all 0 or
    /// all 1; such a value is nudged).
    public func resolvablePrivateAddress(random: UInt32) -> BluetoothAddress {
        var bits = random & 0x3F_FFFF
        if bits == 0 { bits = 1 } else if bits == 0x3F_FFFF { bits = 0x3F_FFFE }
        let prand = 0x40_0000 | bits
        return BluetoothAddress(rawValue: UInt64(prand) << 24 | UInt64(hash(prand: prand)))
    }

    /// Never the key's bytes.
    public var description: String { "IdentityResolvingKey(16 bytes)" }

    /// No children: `dump` and debuggers' reflection show the description, not the key.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
