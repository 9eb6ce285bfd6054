/// A raw HCI socket's receive filter: the kernel's `struct hci_filter` (`SOL_HCI`/`HCI_FILTER`).
///
/// A socket only receives packets whose type bit is set in ``typeMask`` and, for events, whose
/// event code bit is set in ``eventMask``; a non-zero ``opcode`` further restricts Command
/// Complete/Status events to that command. The bit layout is libbluetooth's
/// (`hci_filter_set_ptype`, `hci_filter_set_event` in `hci_lib.h`).
public struct HCIFilter: Hashable, Sendable, CustomStringConvertible {
    /// One bit per H4 packet type (bit `type & 31`).
    public var typeMask: UInt32
    /// One bit per event code (bit `code & 63`): codes 0–31 in the first word, 32–63 in the second.
    public var eventMask: (UInt32, UInt32)
    /// Command Complete/Status events pass only for this opcode; 0 lets all through.
    public var opcode: UInt16

    /// Creates a filter from its raw fields.
    public init(typeMask: UInt32 = 0, eventMask: (UInt32, UInt32) = (0, 0), opcode: UInt16 = 0) {
        self.typeMask = typeMask
        self.eventMask = eventMask
        self.opcode = opcode
    }

    /// Lets packets of H4 type `packetType` through (e.g. `0x04`, events).
    public mutating func allowPacketType(_ packetType: UInt8) {
        typeMask |= 1 << UInt32(packetType & 31)
    }

    /// Lets events with code `eventCode` through (e.g. `0x3E`, LE Meta).
    public mutating func allowEvent(_ eventCode: UInt8) {
        let bit = eventCode & 63
        if bit < 32 { eventMask.0 |= 1 << UInt32(bit) } else { eventMask.1 |= 1 << UInt32(bit - 32) }
    }

    /// Whether events with code `eventCode` pass.
    public func allowsEvent(_ eventCode: UInt8) -> Bool {
        let bit = eventCode & 63
        return bit < 32 ? eventMask.0 & (1 << UInt32(bit)) != 0 : eventMask.1 & (1 << UInt32(bit - 32)) != 0
    }

    /// H4 event packets only, with the given event codes.
    public static func events(_ codes: UInt8...) -> HCIFilter {
        var filter = HCIFilter()
        filter.allowPacketType(HCIPacketType.event)
        for code in codes { filter.allowEvent(code) }
        return filter
    }

    /// What the scanner listens to while scanning: LE Meta events (advertising reports).
    public static let leMeta = events(HCIEventCode.leMeta)

    /// What the scanner listens to while it sends commands: Command Complete, Command Status and
    /// LE Meta.
    public static let commandResponses = events(
        HCIEventCode.commandComplete, HCIEventCode.commandStatus,
        HCIEventCode.leMeta)

    public static func == (lhs: HCIFilter, rhs: HCIFilter) -> Bool {
        lhs.typeMask == rhs.typeMask && lhs.eventMask == rhs.eventMask && lhs.opcode == rhs.opcode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeMask)
        hasher.combine(eventMask.0)
        hasher.combine(eventMask.1)
        hasher.combine(opcode)
    }

    /// `types 0x00000010 events 0x00000000:0x40000000 opcode 0x0000`.
    public var description: String {
        "types \(hex(typeMask)) events \(hex(eventMask.0)):\(hex(eventMask.1)) opcode \(hex16(opcode))"
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    private func hex16(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
