/// The return parameters of HCI_Read_Local_Version_Information (§7.4.1), after the status.
public struct LocalVersion: Hashable, Sendable, CustomStringConvertible {
    /// HCI_Version (Assigned Numbers: 0x06 = 4.0, 0x09 = 5.0, 0x0D = 5.4).
    public var hciVersion: UInt8
    /// HCI_Subversion (was HCI_Revision).
    public var hciSubversion: UInt16
    /// LMP_Version.
    public var lmpVersion: UInt8
    /// Company_Identifier of the controller's manufacturer.
    public var manufacturer: UInt16
    /// LMP_Subversion.
    public var lmpSubversion: UInt16

    /// HCI version 5.0 (`0x09`): the first with the extended scanning commands.
    public static let bluetooth5: UInt8 = 0x09

    /// Creates a version record.
    public init(
        hciVersion: UInt8, hciSubversion: UInt16 = 0, lmpVersion: UInt8 = 0,
        manufacturer: UInt16 = 0, lmpSubversion: UInt16 = 0
    ) {
        self.hciVersion = hciVersion
        self.hciSubversion = hciSubversion
        self.lmpVersion = lmpVersion
        self.manufacturer = manufacturer
        self.lmpSubversion = lmpSubversion
    }

    /// Reads the 8 bytes after the status: HCI_Version(1) HCI_Subversion(2) LMP_Version(1)
    /// Company_Identifier(2) LMP_Subversion(2), little-endian.
    public init(returnParameters p: [UInt8]) throws(HCIEventError) {
        guard p.count >= 8 else {
            throw HCIEventError(.shortReturnParameters(opcode: .readLocalVersion, needed: 8, actual: p.count), bytes: p)
        }
        self.init(
            hciVersion: p[0], hciSubversion: UInt16(p[1]) | UInt16(p[2]) << 8, lmpVersion: p[3],
            manufacturer: UInt16(p[4]) | UInt16(p[5]) << 8, lmpSubversion: UInt16(p[6]) | UInt16(p[7]) << 8)
    }

    /// `Bluetooth 5.0` for the known versions, else `HCI version 0x..`.
    public var description: String {
        let names: [UInt8: String] = [
            0x06: "4.0", 0x07: "4.1", 0x08: "4.2", 0x09: "5.0", 0x0A: "5.1",
            0x0B: "5.2", 0x0C: "5.3", 0x0D: "5.4", 0x0E: "6.0",
        ]
        return names[hciVersion].map { "Bluetooth \($0)" } ?? "HCI version \(hciVersion)"
    }
}
