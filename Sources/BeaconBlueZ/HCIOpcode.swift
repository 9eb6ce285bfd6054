/// An HCI command opcode: OGF (6 bits) and OCF (10 bits), sent little-endian.
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// `OGF << 10 | OCF`.
    public let rawValue: UInt16

    /// Wraps a raw opcode.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Builds an opcode from its group and command fields.
    public init(ogf: UInt16, ocf: UInt16) { rawValue = (ogf & 0x3F) << 10 | (ocf & 0x3FF) }

    /// HCI_Reset (OGF 0x03, OCF 0x0003). The scanner never sends it (bluetoothd owns resets).
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
    /// HCI_Read_Local_Version_Information (OGF 0x04, OCF 0x0001).
    public static let readLocalVersion = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// HCI_LE_Read_Local_Supported_Features (OGF 0x08, OCF 0x0003).
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// HCI_LE_Set_Advertising_Parameters (OGF 0x08, OCF 0x0006).
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    /// HCI_LE_Set_Advertising_Data (OGF 0x08, OCF 0x0008).
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    /// HCI_LE_Set_Advertising_Enable (OGF 0x08, OCF 0x000A).
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
    /// HCI_LE_Set_Scan_Parameters (OGF 0x08, OCF 0x000B).
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// HCI_LE_Set_Scan_Enable (OGF 0x08, OCF 0x000C).
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    /// HCI_LE_Set_Extended_Advertising_Parameters (OGF 0x08, OCF 0x0036).
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0036)
    /// HCI_LE_Set_Extended_Advertising_Data (OGF 0x08, OCF 0x0037).
    public static let leSetExtendedAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0037)
    /// HCI_LE_Set_Extended_Advertising_Enable (OGF 0x08, OCF 0x0039).
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0039)
    /// HCI_LE_Set_Extended_Scan_Parameters (OGF 0x08, OCF 0x0041).
    public static let leSetExtendedScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x0041)
    /// HCI_LE_Set_Extended_Scan_Enable (OGF 0x08, OCF 0x0042).
    public static let leSetExtendedScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x0042)

    /// The command's spec name, e.g. `LE Set Scan Parameters (0x200b)`.
    public var description: String {
        let name: String? =
            switch self {
            case .reset: "Reset"
            case .readLocalVersion: "Read Local Version Information"
            case .leReadLocalSupportedFeatures: "LE Read Local Supported Features"
            case .leSetAdvertisingParameters: "LE Set Advertising Parameters"
            case .leSetAdvertisingData: "LE Set Advertising Data"
            case .leSetAdvertisingEnable: "LE Set Advertising Enable"
            case .leSetScanParameters: "LE Set Scan Parameters"
            case .leSetScanEnable: "LE Set Scan Enable"
            case .leSetExtendedAdvertisingParameters: "LE Set Extended Advertising Parameters"
            case .leSetExtendedAdvertisingData: "LE Set Extended Advertising Data"
            case .leSetExtendedAdvertisingEnable: "LE Set Extended Advertising Enable"
            case .leSetExtendedScanParameters: "LE Set Extended Scan Parameters"
            case .leSetExtendedScanEnable: "LE Set Extended Scan Enable"
            default: nil
            }
        let digits = String(rawValue, radix: 16)
        let code = "0x" + String(repeating: "0", count: 4 - digits.count) + digits
        return name.map { "\($0) (\(code))" } ?? "opcode \(code)"
    }
}
