/// A 48-bit Bluetooth device address (BD_ADDR).
///
/// HCI carries addresses least significant byte first; people (and btmon, Wireshark, BlueZ) write
/// them most significant byte first as `aa:bb:cc:dd:ee:ff`. `rawValue` holds the 48 bits with the
/// most significant byte of the display form in bits 40–47.
public struct BluetoothAddress: Hashable, Sendable, Comparable, RawRepresentable {
    /// The address in its low 48 bits.
    public let rawValue: UInt64

    /// Creates an address from its low 48 bits (higher bits are dropped).
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue & 0xFFFF_FFFF_FFFF
    }

    /// Reads an address in HCI wire order (least significant byte first) from 6 bytes at `offset`.
    /// The caller guarantees that `offset + 6 <= bytes.count`.
    @inlinable
    public init(wireBytes bytes: UnsafeRawBufferPointer, at offset: Int) {
        var value: UInt64 = 0
        for i in (0..<6).reversed() {
            value = value << 8 | UInt64(bytes[offset + i])
        }
        self.rawValue = value
    }

    /// Parses `aa:bb:cc:dd:ee:ff` (or with `-` separators, either case).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        self.rawValue = value
    }

    /// Writes the address in HCI wire order (least significant byte first).
    @inlinable
    public func appendWireBytes(to buffer: inout [UInt8]) {
        for i in 0..<6 { buffer.append(UInt8(truncatingIfNeeded: rawValue >> (8 * UInt64(i)))) }
    }

    /// The byte at display position `index` (0 = most significant, the first pair in `aa:bb:…`).
    @inlinable
    public subscript(displayIndex index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: rawValue >> UInt64(8 * (5 - index)))
    }

    @inlinable
    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension BluetoothAddress: CustomStringConvertible {
    /// Lower-case `aa:bb:cc:dd:ee:ff`, most significant byte first.
    public var description: String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(17)
        for i in 0..<6 {
            if i > 0 { out.append(UInt8(ascii: ":")) }
            let b = self[displayIndex: i]
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
