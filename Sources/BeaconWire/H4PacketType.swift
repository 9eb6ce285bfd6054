/// The packet-type byte that starts every packet of an H4 (UART) HCI stream.
public enum H4PacketType: UInt8, Hashable, Sendable, CaseIterable {
    /// HCI command: opcode (u16 LE), parameter length (u8 at byte 3).
    case command = 0x01
    /// ACL data: handle and flags (u16 LE), data length (u16 LE at bytes 3…4).
    case acl = 0x02
    /// SCO data: handle and flags (u16 LE), data length (u8 at byte 3).
    case sco = 0x03
    /// HCI event: event code, parameter length (u8 at byte 2).
    case event = 0x04
    /// ISO data: handle and flags (u16 LE), data length (14 bits of the u16 LE at bytes 3…4).
    case iso = 0x05

    /// Bytes from the type byte to the end of the length field.
    @inlinable
    public var headerLength: Int {
        switch self {
        case .event: 3
        case .command, .sco: 4
        case .acl, .iso: 5
        }
    }

    /// The payload length announced by a header; `header` holds at least ``headerLength`` bytes,
    /// starting at the type byte.
    @inlinable
    public func payloadLength(header: UnsafeRawBufferPointer) -> Int {
        switch self {
        case .event: Int(header[2])
        case .command, .sco: Int(header[3])
        case .acl: Int(header[3]) | Int(header[4]) << 8
        case .iso: (Int(header[3]) | Int(header[4]) << 8) & 0x3FFF
        }
    }
}
