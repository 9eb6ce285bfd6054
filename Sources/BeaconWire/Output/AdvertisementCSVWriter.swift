import BeaconCore

/// Writes advertisements as CSV rows.
///
/// Columns (``header``): `time` (Unix seconds, 6 decimals), `address` (lower case, most
/// significant byte first), `address_type` (`public`, `random`, `public_identity`,
/// `random_identity`, `anonymous`), `event_type` (hex: legacy `0x00`…, extended `0x0013`, sniffer
/// PDU type `0x00`…), `rssi` (dBm, empty when not available), `ibeacon_uuid` (upper case
/// 8-4-4-4-12), `ibeacon_major`, `ibeacon_minor`, `ibeacon_power` (empty unless iBeacon), then
/// `source` (`legacy`, `extended`, `directed`, `link_layer`), `channel` (sniffers: channel index),
/// `crc_ok` (sniffers: 1 or 0), `tx_power` (extended reports / extended PDUs), `frame` (1-based
/// record number) and `data` (the advertising data, hex). No field ever needs quoting.
public struct AdvertisementCSVWriter: Sendable {
    /// The header row, newline included.
    public static let header: StaticString =
        "time,address,address_type,event_type,rssi,ibeacon_uuid,ibeacon_major,ibeacon_minor,ibeacon_power,source,channel,crc_ok,tx_power,frame,data\n"

    /// Creates a writer.
    public init() {}

    /// Appends the header row.
    public func appendHeader(to buffer: OutputBuffer) {
        buffer.append(Self.header)
    }

    /// Appends one row for `advertisement` (whose AD structures were read into `facts`).
    public func append(_ advertisement: DecodedAdvertisement, facts: AdvertisementFacts, to buffer: OutputBuffer) {
        let comma = UInt8(ascii: ",")
        let report = advertisement.report
        buffer.append(unixSeconds: advertisement.timestamp)
        buffer.append(byte: comma)
        buffer.append(address: report.address)
        buffer.append(byte: comma)
        buffer.append(report.addressType.staticName)
        buffer.append(byte: comma)
        buffer.append(eventTypeOf: report)
        buffer.append(byte: comma)
        if let rssi = report.rssi { buffer.append(decimal: Int(rssi)) }
        buffer.append(byte: comma)
        if let beacon = facts.iBeacon {
            buffer.append(uuidHigh: beacon.uuidHigh, low: beacon.uuidLow)
            buffer.append(byte: comma)
            buffer.append(unsigned: UInt(beacon.major))
            buffer.append(byte: comma)
            buffer.append(unsigned: UInt(beacon.minor))
            buffer.append(byte: comma)
            buffer.append(decimal: Int(beacon.measuredPower))
        } else {
            buffer.append(",,,")
        }
        buffer.append(byte: comma)
        buffer.append(report.kind.staticName)
        buffer.append(byte: comma)
        if let channel = report.channel { buffer.append(unsigned: UInt(channel)) }
        buffer.append(byte: comma)
        if let crcOK = advertisement.crcOK { buffer.append(byte: crcOK ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
        buffer.append(byte: comma)
        if let txPower = report.txPower { buffer.append(decimal: Int(txPower)) }
        buffer.append(byte: comma)
        buffer.append(unsigned: UInt(advertisement.recordIndex + 1))
        buffer.append(byte: comma)
        buffer.append(hexBytes: report.data)
        buffer.append(byte: UInt8(ascii: "\n"))
    }
}
