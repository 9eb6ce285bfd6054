/// The controller's answer to a command: a Command Complete event (§7.7.14) with the status
/// and return parameters, or a Command Status event (§7.7.15) with a status only.
public struct HCICommandResponse: Hashable, Sendable {
    /// Which kind of event carried the response.
    public enum Kind: Hashable, Sendable {
        /// Command Complete (`0x0E`).
        case complete
        /// Command Status (`0x0F`).
        case status
    }

    /// Command Complete or Command Status.
    public var kind: Kind
    /// The command answered.
    public var opcode: HCIOpcode
    /// The status (for Command Complete: the first return parameter, when present).
    public var status: HCIStatus
    /// The return parameters after the status byte (empty for Command Status).
    public var returnParameters: [UInt8]

    /// Creates a response.
    public init(kind: Kind, opcode: HCIOpcode, status: HCIStatus, returnParameters: [UInt8] = []) {
        self.kind = kind
        self.opcode = opcode
        self.status = status
        self.returnParameters = returnParameters
    }

    /// Reads a Command Complete or Command Status event from an H4 packet (`04 0E …` / `04 0F …`).
    ///
    /// - Returns: `nil` for any other packet (LE Meta events and the like).
    /// - Throws: ``HCIEventError`` when the event is a Command Complete/Status but its length
    ///   byte does not match the bytes read, or it is too short for its fixed fields.
    public static func parse(_ packet: UnsafeRawBufferPointer) throws(HCIEventError) -> HCICommandResponse? {
        guard packet.count >= 2, packet[0] == HCIPacketType.event,
            packet[1] == HCIEventCode.commandComplete || packet[1] == HCIEventCode.commandStatus
        else { return nil }
        guard packet.count >= 3 else { throw HCIEventError(.truncated(needed: 3), packet: packet) }
        let declared = Int(packet[2])
        guard packet.count == declared + 3 else {
            throw HCIEventError(.lengthMismatch(declared: declared, actual: packet.count - 3), packet: packet)
        }
        if packet[1] == HCIEventCode.commandComplete {
            // 04 0E len Num_HCI_Command_Packets Opcode(2) Return_Parameters…(status first)
            guard declared >= 3 else { throw HCIEventError(.truncated(needed: 6), packet: packet) }
            let opcode = HCIOpcode(rawValue: UInt16(packet[4]) | UInt16(packet[5]) << 8)
            let status = declared >= 4 ? HCIStatus(rawValue: packet[6]) : .success
            let rest = declared > 4 ? Array(packet[7...]) : []
            return HCICommandResponse(kind: .complete, opcode: opcode, status: status, returnParameters: rest)
        }
        // 04 0F 04 Status Num_HCI_Command_Packets Opcode(2)
        guard declared >= 4 else { throw HCIEventError(.truncated(needed: 7), packet: packet) }
        let opcode = HCIOpcode(rawValue: UInt16(packet[5]) | UInt16(packet[6]) << 8)
        return HCICommandResponse(kind: .status, opcode: opcode, status: HCIStatus(rawValue: packet[3]))
    }

    /// ``parse(_:)`` over an array.
    public static func parse(_ packet: [UInt8]) throws(HCIEventError) -> HCICommandResponse? {
        let result = packet.withUnsafeBytes { bytes in
            Result { () throws(HCIEventError) -> HCICommandResponse? in try parse(bytes) }
        }
        return try result.get()
    }
}
