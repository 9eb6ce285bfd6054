import BeaconCore

/// Appends whole H4 HCI event packets (type byte 0x04 included) carrying one advertising report:
/// the bytes a controller sends, for the simulator and for tests.
public enum HCIEventEncoder {
    /// The largest Data_Length of a legacy report.
    public static let maximumLegacyDataLength = 31
    /// The largest Data_Length that fits one extended report in one event (255 − 26).
    public static let maximumExtendedDataLength = 229

    /// Appends an LE Advertising Report event (`04 3E plen 02 01 type addrType addr(6) len data rssi`).
    /// `writeData` appends the AD bytes (at most 31); the lengths are filled in afterwards.
    public static func appendLEAdvertisingReport(
        eventType: UInt8, addressType: AddressType, address: BluetoothAddress, rssi: Int8?,
        to buffer: inout [UInt8], data writeData: (inout [UInt8]) -> Void
    ) {
        let start = buffer.count
        buffer.append(
            contentsOf: [
                H4PacketType.event.rawValue, 0x3E, 0x00,
                AdvertisingReportKind.legacy.rawValue, 0x01, eventType, addressType.rawValue,
            ] as [UInt8])
        address.appendWireBytes(to: &buffer)
        let lengthIndex = buffer.count
        buffer.append(0)
        writeData(&buffer)
        let dataLength = buffer.count - lengthIndex - 1
        precondition(dataLength <= maximumLegacyDataLength, "legacy advertising data holds at most 31 bytes")
        buffer[lengthIndex] = UInt8(dataLength)
        buffer.append(rssi.map { UInt8(bitPattern: $0) } ?? 0x7F)
        buffer[start + 2] = UInt8(buffer.count - start - 3)
    }

    /// Appends an LE Advertising Report event carrying `data`.
    public static func appendLEAdvertisingReport(
        eventType: UInt8, addressType: AddressType, address: BluetoothAddress, rssi: Int8?, data: [UInt8],
        to buffer: inout [UInt8]
    ) {
        appendLEAdvertisingReport(
            eventType: eventType, addressType: addressType, address: address, rssi: rssi,
            to: &buffer
        ) { $0.append(contentsOf: data) }
    }

    /// Appends an LE Extended Advertising Report event (`04 3E plen 0D 01` then event type (u16
    /// LE), address type, address, primary PHY, secondary PHY, SID, TX power, RSSI, periodic
    /// interval (u16 LE), direct address type, direct address, data length, data). `nil` values
    /// are written as the spec's "not available" codes (secondary PHY 0, SID 0xFF, TX power and
    /// RSSI 127, interval 0, direct address zeros). `writeData` appends at most 229 bytes.
    public static func appendLEExtendedAdvertisingReport(
        eventType: UInt16, addressType: AddressType, address: BluetoothAddress, primaryPHY: UInt8 = 0x01,
        secondaryPHY: UInt8? = nil, sid: UInt8? = nil, txPower: Int8? = nil, rssi: Int8?,
        periodicAdvertisingInterval: UInt16? = nil, directAddressType: AddressType? = nil,
        directAddress: BluetoothAddress? = nil, to buffer: inout [UInt8], data writeData: (inout [UInt8]) -> Void
    ) {
        let start = buffer.count
        buffer.append(
            contentsOf: [H4PacketType.event.rawValue, 0x3E, 0x00, AdvertisingReportKind.extended.rawValue, 0x01] as [UInt8])
        buffer.appendLittleEndian(eventType)
        buffer.append(addressType.rawValue)
        address.appendWireBytes(to: &buffer)
        buffer.append(primaryPHY)
        buffer.append(secondaryPHY ?? 0x00)
        buffer.append(sid ?? 0xFF)
        buffer.append(txPower.map { UInt8(bitPattern: $0) } ?? 0x7F)
        buffer.append(rssi.map { UInt8(bitPattern: $0) } ?? 0x7F)
        buffer.appendLittleEndian(periodicAdvertisingInterval ?? 0)
        buffer.append(directAddressType?.rawValue ?? 0x00)
        (directAddress ?? BluetoothAddress(rawValue: 0)).appendWireBytes(to: &buffer)
        let lengthIndex = buffer.count
        buffer.append(0)
        writeData(&buffer)
        let dataLength = buffer.count - lengthIndex - 1
        precondition(dataLength <= maximumExtendedDataLength, "one extended report event holds at most 229 data bytes")
        buffer[lengthIndex] = UInt8(dataLength)
        buffer[start + 2] = UInt8(buffer.count - start - 3)
    }

    /// Appends an LE Extended Advertising Report event carrying `data`.
    public static func appendLEExtendedAdvertisingReport(
        eventType: UInt16, addressType: AddressType, address: BluetoothAddress, primaryPHY: UInt8 = 0x01,
        secondaryPHY: UInt8? = nil, sid: UInt8? = nil, txPower: Int8? = nil, rssi: Int8?,
        periodicAdvertisingInterval: UInt16? = nil, directAddressType: AddressType? = nil,
        directAddress: BluetoothAddress? = nil, data: [UInt8], to buffer: inout [UInt8]
    ) {
        appendLEExtendedAdvertisingReport(
            eventType: eventType, addressType: addressType, address: address, primaryPHY: primaryPHY,
            secondaryPHY: secondaryPHY, sid: sid, txPower: txPower, rssi: rssi,
            periodicAdvertisingInterval: periodicAdvertisingInterval, directAddressType: directAddressType,
            directAddress: directAddress, to: &buffer
        ) { $0.append(contentsOf: data) }
    }
}
