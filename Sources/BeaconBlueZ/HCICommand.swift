/// An HCI command packet as the scanner writes it to a raw HCI socket (H4 framing):
/// `0x01`, opcode (little-endian), parameter length, parameters.
///
/// Layouts are from the Core specification, Vol 4, Part E, §7.
public struct HCICommand: Hashable, Sendable, CustomStringConvertible {
    /// The command.
    public let opcode: HCIOpcode
    /// Its parameters, already encoded.
    public let parameters: [UInt8]

    /// A command with encoded parameters (at most 255 bytes).
    public init(opcode: HCIOpcode, parameters: [UInt8] = []) {
        precondition(parameters.count <= 255, "HCI command parameters are at most 255 bytes")
        self.opcode = opcode
        self.parameters = parameters
    }

    /// The H4 packet: `01 <opcode lo> <opcode hi> <length> <parameters…>`.
    public var packet: [UInt8] {
        [
            HCIPacketType.command, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8),
            UInt8(parameters.count),
        ] + parameters
    }

    /// The command's name.
    public var description: String { opcode.description }

    /// HCI_Reset (§7.3.2): no parameters.
    public static let reset = HCICommand(opcode: .reset)

    /// HCI_Read_Local_Version_Information (§7.4.1): no parameters.
    public static let readLocalVersion = HCICommand(opcode: .readLocalVersion)

    /// HCI_LE_Read_Local_Supported_Features (§7.8.3): no parameters.
    public static let leReadLocalSupportedFeatures = HCICommand(opcode: .leReadLocalSupportedFeatures)

    /// HCI_LE_Set_Scan_Parameters (§7.8.10): LE_Scan_Type, LE_Scan_Interval, LE_Scan_Window,
    /// Own_Address_Type, Scanning_Filter_Policy (0x00: accept all advertisements).
    public static func leSetScanParameters(_ scan: ScanParameters) -> HCICommand {
        var bytes: [UInt8] = [scan.type.rawValue]
        appendLittleEndian(scan.intervalUnits, to: &bytes)
        appendLittleEndian(scan.windowUnits, to: &bytes)
        bytes += [scan.ownAddressType.rawValue, 0x00]
        return HCICommand(opcode: .leSetScanParameters, parameters: bytes)
    }

    /// HCI_LE_Set_Scan_Enable (§7.8.11): LE_Scan_Enable, Filter_Duplicates.
    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(opcode: .leSetScanEnable, parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0])
    }

    /// HCI_LE_Set_Extended_Scan_Parameters (§7.8.64) for the LE 1M PHY only: Own_Address_Type,
    /// Scanning_Filter_Policy (0x00), Scanning_PHYs (0x01 = LE 1M), then for that PHY
    /// Scan_Type, Scan_Interval, Scan_Window.
    public static func leSetExtendedScanParameters(_ scan: ScanParameters) -> HCICommand {
        var bytes: [UInt8] = [scan.ownAddressType.rawValue, 0x00, 0x01, scan.type.rawValue]
        appendLittleEndian(scan.intervalUnits, to: &bytes)
        appendLittleEndian(scan.windowUnits, to: &bytes)
        return HCICommand(opcode: .leSetExtendedScanParameters, parameters: bytes)
    }

    /// HCI_LE_Set_Extended_Scan_Enable (§7.8.65): Enable, Filter_Duplicates, Duration (0 = scan
    /// until disabled), Period (0 = not periodic).
    public static func leSetExtendedScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(
            opcode: .leSetExtendedScanEnable,
            parameters: [enable ? 1 : 0, filterDuplicates ? 1 : 0, 0x00, 0x00, 0x00, 0x00])
    }

    private static func appendLittleEndian(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }
}
