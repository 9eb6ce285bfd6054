/// The one rule by which beacond writes a byte of a JSON string (RFC 8259, section 7): `"` and
/// `\` are escaped, `\n`, `\r` and `\t` by name, other control characters as `\u00XX`; every
/// other byte (UTF-8 included) stands for itself. ``JSONWriter`` and the per-packet JSON-lines
/// output of BeaconWire both write strings through it.
public enum JSONStringEscape {
    /// Calls `write` with each byte that stands for `byte` inside a JSON string (one byte, or an
    /// escape of up to six). Allocation-free.
    @inlinable
    public static func write(_ byte: UInt8, _ write: (UInt8) -> Void) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            write(UInt8(ascii: "\\"))
            write(byte)
        case 0x0A:
            write(UInt8(ascii: "\\"))
            write(UInt8(ascii: "n"))
        case 0x0D:
            write(UInt8(ascii: "\\"))
            write(UInt8(ascii: "r"))
        case 0x09:
            write(UInt8(ascii: "\\"))
            write(UInt8(ascii: "t"))
        case 0..<0x20:
            write(UInt8(ascii: "\\"))
            write(UInt8(ascii: "u"))
            write(UInt8(ascii: "0"))
            write(UInt8(ascii: "0"))
            write(hexDigit(byte >> 4))
            write(hexDigit(byte & 0x0F))
        default:
            write(byte)
        }
    }

    @inlinable
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
