/// The 24-bit CRC of Bluetooth LE link-layer packets (Core spec Vol 6 Part B §3.1.1):
/// polynomial x²⁴ + x¹⁰ + x⁹ + x⁶ + x⁴ + x³ + x + 1, computed over the PDU header and payload,
/// bits least significant first. Advertising-channel packets use the initial value 0x555555.
public enum BLECRC24 {
    /// The CRC initial value of advertising-channel packets.
    public static let advertisingChannelInit: UInt32 = 0x55_5555

    /// The CRC of `pdu` as it appears on air read as a little-endian 24-bit number (the byte
    /// order in which sniffers store the three CRC bytes after the payload).
    public static func compute(_ pdu: UnsafeRawBufferPointer, initial: UInt32 = advertisingChannelInit) -> UInt32 {
        // The LFSR runs bit-reversed so that bytes can be fed least significant bit first.
        var state = reversed24(initial)
        for byte in pdu {
            var current = byte
            for _ in 0..<8 {
                let feedback = (state ^ UInt32(current)) & 1
                current >>= 1
                state >>= 1
                if feedback == 1 { state ^= 0x5A_6000 | 1 << 23 }
            }
        }
        return state
    }

    /// Whether the three bytes after `pdu` in `packet` (little-endian) are its CRC.
    public static func isValid(
        pdu: UnsafeRawBufferPointer, crc: UnsafeRawBufferPointer,
        initial: UInt32 = advertisingChannelInit
    ) -> Bool {
        guard crc.count == 3 else { return false }
        let received = UInt32(crc[0]) | UInt32(crc[1]) << 8 | UInt32(crc[2]) << 16
        return compute(pdu, initial: initial) == received
    }

    static func reversed24(_ value: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<24 where value & (1 << UInt32(bit)) != 0 {
            result |= 1 << UInt32(23 - bit)
        }
        return result
    }
}
