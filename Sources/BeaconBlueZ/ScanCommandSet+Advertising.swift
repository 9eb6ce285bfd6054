/// The advertising commands that go with a scan command set: a controller that has seen an
/// extended command refuses legacy ones (and the other way round) with Command Disallowed, so an
/// adapter advertises with the set it scans with.
extension ScanCommandSet {
    /// The commands that set up advertising, in order: parameters, data, enable.
    public func advertisingCommands(_ advertising: BeaconAdvertising) -> [HCICommand] {
        switch self {
        case .legacy:
            [.leSetAdvertisingParameters(advertising), .leSetAdvertisingData(advertising), .leSetAdvertisingEnable(true)]
        case .extended:
            [
                .leSetExtendedAdvertisingParameters(advertising), .leSetExtendedAdvertisingData(advertising),
                .leSetExtendedAdvertisingEnable(true),
            ]
        }
    }

    /// The command that stops advertising.
    public var advertisingDisableCommand: HCICommand {
        self == .legacy ? .leSetAdvertisingEnable(false) : .leSetExtendedAdvertisingEnable(false)
    }

    /// `legacy LE advertising commands (0x2006/0x2008/0x200a)` or the extended ones.
    public var advertisingDescription: String {
        self == .legacy
            ? "legacy LE advertising commands (0x2006/0x2008/0x200a)"
            : "extended LE advertising commands (0x2036/0x2037/0x2039)"
    }
}
