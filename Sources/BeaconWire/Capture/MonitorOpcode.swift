/// The opcodes of the Linux Bluetooth monitor protocol (btmon, btsnoop datalink 2001), from
/// BlueZ `src/shared/btsnoop.h`.
public enum MonitorOpcode: UInt16, Sendable, CaseIterable {
    /// A controller was added.
    case newIndex = 0
    /// A controller was removed.
    case deleteIndex = 1
    /// HCI command packet (host → controller).
    case commandPacket = 2
    /// HCI event packet (controller → host).
    case eventPacket = 3
    /// Outgoing ACL data.
    case aclTransmit = 4
    /// Incoming ACL data.
    case aclReceive = 5
    /// Outgoing SCO data.
    case scoTransmit = 6
    /// Incoming SCO data.
    case scoReceive = 7
    /// The controller was opened.
    case openIndex = 8
    /// The controller was closed.
    case closeIndex = 9
    /// Controller information.
    case indexInfo = 10
    /// Vendor diagnostics.
    case vendorDiagnostic = 11
    /// A system note (text).
    case systemNote = 12
    /// A user logging message.
    case userLogging = 13
    /// A management socket was opened.
    case controlOpen = 14
    /// A management socket was closed.
    case controlClose = 15
    /// A management command.
    case controlCommand = 16
    /// A management event.
    case controlEvent = 17
    /// Outgoing ISO data.
    case isoTransmit = 18
    /// Incoming ISO data.
    case isoReceive = 19

    /// The H4 packet-type byte and direction of an HCI packet opcode; `nil` for metadata opcodes.
    public var h4PacketType: (type: UInt8, direction: CaptureDirection)? {
        switch self {
        case .commandPacket: (0x01, .sent)
        case .eventPacket: (0x04, .received)
        case .aclTransmit: (0x02, .sent)
        case .aclReceive: (0x02, .received)
        case .scoTransmit: (0x03, .sent)
        case .scoReceive: (0x03, .received)
        case .isoTransmit: (0x05, .sent)
        case .isoReceive: (0x05, .received)
        default: nil
        }
    }

    /// The monitor opcode of an H4 packet type travelling in `direction`; `nil` for unknown types.
    public init?(h4PacketType type: UInt8, direction: CaptureDirection) {
        let sent = direction == .sent
        switch type {
        case 0x01: self = .commandPacket
        case 0x04: self = .eventPacket
        case 0x02: self = sent ? .aclTransmit : .aclReceive
        case 0x03: self = sent ? .scoTransmit : .scoReceive
        case 0x05: self = sent ? .isoTransmit : .isoReceive
        default: return nil
        }
    }
}
