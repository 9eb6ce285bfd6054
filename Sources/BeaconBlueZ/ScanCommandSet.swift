/// Which pair of scan commands the scanner uses with a controller.
public enum ScanCommandSet: Hashable, Sendable, CustomStringConvertible {
    /// LE Set Scan Parameters / Enable (0x200B / 0x200C): Bluetooth 4.x.
    case legacy
    /// LE Set Extended Scan Parameters / Enable (0x2041 / 0x2042): Bluetooth 5.0 controllers
    /// with the LE Extended Advertising feature.
    case extended

    /// Extended when the controller is HCI 5.0 or later and has LE Extended Advertising (bit 12),
    /// legacy otherwise.
    public static func preferred(version: LocalVersion, features: LEFeatures?) -> ScanCommandSet {
        guard version.hciVersion >= LocalVersion.bluetooth5, let features, features.supportsExtendedAdvertising
        else { return .legacy }
        return .extended
    }

    /// The other set, tried when this one answers Command Disallowed.
    public var other: ScanCommandSet { self == .legacy ? .extended : .legacy }

    /// The parameters command for this set.
    public func parametersCommand(_ scan: ScanParameters) -> HCICommand {
        self == .legacy ? .leSetScanParameters(scan) : .leSetExtendedScanParameters(scan)
    }

    /// The enable/disable command for this set (duplicate filtering off).
    public func enableCommand(_ enable: Bool) -> HCICommand {
        self == .legacy ? .leSetScanEnable(enable) : .leSetExtendedScanEnable(enable)
    }

    /// `legacy (0x200b/0x200c)` or `extended (0x2041/0x2042)`.
    public var description: String {
        self == .legacy ? "legacy LE scan commands (0x200b/0x200c)" : "extended LE scan commands (0x2041/0x2042)"
    }
}
