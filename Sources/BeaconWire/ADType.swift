/// The type byte of an AD structure (Bluetooth Assigned Numbers, "Common Data Types").
public struct ADType: RawRepresentable, Hashable, Sendable {
    /// The type byte.
    public let rawValue: UInt8

    /// Creates a type from its byte.
    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Flags.
    public static let flags = ADType(rawValue: 0x01)
    /// 0x02 Incomplete List of 16-bit Service UUIDs.
    public static let incompleteServiceUUIDs16 = ADType(rawValue: 0x02)
    /// 0x03 Complete List of 16-bit Service UUIDs.
    public static let completeServiceUUIDs16 = ADType(rawValue: 0x03)
    /// 0x04 Incomplete List of 32-bit Service UUIDs.
    public static let incompleteServiceUUIDs32 = ADType(rawValue: 0x04)
    /// 0x05 Complete List of 32-bit Service UUIDs.
    public static let completeServiceUUIDs32 = ADType(rawValue: 0x05)
    /// 0x06 Incomplete List of 128-bit Service UUIDs.
    public static let incompleteServiceUUIDs128 = ADType(rawValue: 0x06)
    /// 0x07 Complete List of 128-bit Service UUIDs.
    public static let completeServiceUUIDs128 = ADType(rawValue: 0x07)
    /// 0x08 Shortened Local Name.
    public static let shortenedLocalName = ADType(rawValue: 0x08)
    /// 0x09 Complete Local Name.
    public static let completeLocalName = ADType(rawValue: 0x09)
    /// 0x0A Tx Power Level.
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    /// 0x16 Service Data – 16-bit UUID.
    public static let serviceData16 = ADType(rawValue: 0x16)
    /// 0xFF Manufacturer Specific Data.
    public static let manufacturerData = ADType(rawValue: 0xFF)
}
