import BeaconCore

/// The last few distinct addresses a beacon advertised from (rotating private addresses, or
/// several devices sharing one identity), stored inline in 67 bytes.
public struct AddressHistory: Sendable {
    /// How many distinct addresses are remembered.
    public static let capacity = 8

    private var slots: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var used: UInt8 = 0
    private var next: UInt8 = 0
    private var lastSlot: UInt8 = 0

    /// An empty history.
    public init() {}

    /// Number of distinct addresses held (≤ ``capacity``).
    public var count: Int { Int(used) }

    /// The most recent address (all zeros before the first).
    public var last: BluetoothAddress {
        var copy = slots
        let slot = Int(lastSlot)
        return withUnsafeBytes(of: &copy) { BluetoothAddress(rawValue: $0.load(fromByteOffset: slot * 8, as: UInt64.self)) }
    }

    /// Records `address`; when it is new and the history is full, the oldest address is forgotten.
    public mutating func record(_ address: BluetoothAddress) {
        let tagged = address.rawValue | 1 << 63 // bit 63 marks a used slot
        let held = Int(used)
        let insertAt = Int(next)
        let known: Int? = withUnsafeMutableBytes(of: &slots) { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for i in 0..<held where words[i] == tagged { return i }
            words[insertAt] = tagged
            return nil
        }
        if let known {
            lastSlot = UInt8(known)
            return
        }
        lastSlot = next
        next = UInt8((insertAt + 1) % Self.capacity)
        used = min(used + 1, UInt8(Self.capacity))
    }

    /// The remembered addresses, in slot order (not sorted by time once the history wrapped).
    public var addresses: [BluetoothAddress] {
        var copy = slots
        let held = Int(used)
        return withUnsafeBytes(of: &copy) { raw in
            raw.bindMemory(to: UInt64.self).prefix(held).map { BluetoothAddress(rawValue: $0 & 0xFFFF_FFFF_FFFF) }
        }
    }
}
