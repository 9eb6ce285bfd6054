/// H4 packet-type bytes (the first byte a raw HCI socket reads or writes).
public enum HCIPacketType {
    /// `0x01`: HCI command (host → controller).
    public static let command: UInt8 = 0x01
    /// `0x04`: HCI event (controller → host).
    public static let event: UInt8 = 0x04
}

/// The HCI event codes the scanner cares about (Core spec Vol 4, Part E, §7.7).
public enum HCIEventCode {
    /// `0x0E` Command Complete.
    public static let commandComplete: UInt8 = 0x0E
    /// `0x0F` Command Status.
    public static let commandStatus: UInt8 = 0x0F
    /// `0x10` Hardware Error.
    public static let hardwareError: UInt8 = 0x10
    /// `0x3E` LE Meta (advertising reports are its subevents 0x02 and 0x0D).
    public static let leMeta: UInt8 = 0x3E
}
