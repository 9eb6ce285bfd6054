/// An AD structure decoded by type. Views (`UnsafeRawBufferPointer`, ``LocalName``,
/// ``ServiceUUIDList``) point into the advertising data; decoding allocates nothing.
public enum ADElement {
    /// Flags (0x01): LE Limited / General Discoverable, BR/EDR Not Supported, …
    case flags(UInt8)
    /// A list of service UUIDs (0x02–0x07).
    case serviceUUIDs(ServiceUUIDList)
    /// Shortened (0x08) or complete (0x09) local name.
    case localName(LocalName)
    /// Tx Power Level (0x0A), dBm.
    case txPowerLevel(Int8)
    /// An iBeacon (manufacturer data of company 0x004C, `02 15`, 23 bytes).
    case iBeacon(IBeaconFrame)
    /// An AltBeacon (manufacturer data starting `BE AC` after the company id).
    case altBeacon(AltBeaconFrame)
    /// Other manufacturer-specific data (0xFF): company id and the bytes after it.
    case manufacturerData(company: UInt16, payload: UnsafeRawBufferPointer)
    /// An Eddystone frame (service data for 0xFEAA).
    case eddystone(EddystoneFrame)
    /// Other 16-bit service data (0x16): UUID and the bytes after it.
    case serviceData16(uuid: UInt16, payload: UnsafeRawBufferPointer)
    /// Any other structure, or a known type too short to decode.
    case other(ADStructure)
}

extension ADStructure {
    /// This structure decoded by type.
    @inlinable
    public var element: ADElement {
        let d = data
        switch type.rawValue {
        case 0x01 where d.count >= 1:
            return .flags(d[0])
        case 0x02...0x07:
            let code = Int(type.rawValue - 0x02)
            let width = code < 2 ? 2 : (code < 4 ? 4 : 16)
            return .serviceUUIDs(ServiceUUIDList(width: width, isComplete: code % 2 == 1, bytes: d))
        case 0x08, 0x09:
            return .localName(LocalName(isComplete: type.rawValue == 0x09, bytes: d))
        case 0x0A where d.count >= 1:
            return .txPowerLevel(Int8(bitPattern: d[0]))
        case 0x16 where d.count >= 2:
            if let frame = EddystoneFrame(serviceData: d) { return .eddystone(frame) }
            return .serviceData16(uuid: d.littleEndianUInt16(at: 0), payload: UnsafeRawBufferPointer(rebasing: d[2...]))
        case 0xFF where d.count >= 2:
            if let frame = IBeaconFrame(manufacturerData: d) { return .iBeacon(frame) }
            if let frame = AltBeaconFrame(manufacturerData: d) { return .altBeacon(frame) }
            return .manufacturerData(company: d.littleEndianUInt16(at: 0), payload: UnsafeRawBufferPointer(rebasing: d[2...]))
        default:
            return .other(self)
        }
    }
}
