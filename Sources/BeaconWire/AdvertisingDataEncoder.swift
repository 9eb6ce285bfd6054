/// Appends AD structures (advertising payloads) to a byte buffer: the inverse of
/// ``ADStructureIterator`` and the frame decoders. Used by the simulator and by tests.
///
/// Each function appends one complete structure (or, for Eddystone, the UUID list and the
/// service data the Eddystone spec requires) and allocates only when `buffer` must grow.
public enum AdvertisingDataEncoder {
    /// The usual flags of a non-connectable beacon: LE General Discoverable, BR/EDR not supported.
    public static let beaconFlags: UInt8 = 0x06

    /// Appends a Flags structure (`02 01 flags`).
    public static func appendFlags(_ flags: UInt8 = beaconFlags, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: [0x02, ADType.flags.rawValue, flags] as [UInt8])
    }

    /// Appends an iBeacon manufacturer structure (`1A FF 4C 00 02 15 uuid major minor power`).
    public static func appendIBeacon(_ frame: IBeaconFrame, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: [0x1A, ADType.manufacturerData.rawValue, 0x4C, 0x00, 0x02, 0x15] as [UInt8])
        buffer.appendBigEndian(frame.uuidHigh)
        buffer.appendBigEndian(frame.uuidLow)
        buffer.appendBigEndian(frame.major)
        buffer.appendBigEndian(frame.minor)
        buffer.append(UInt8(bitPattern: frame.measuredPower))
    }

    /// Appends an AltBeacon manufacturer structure (`1B FF company BE AC id(20) rssi reserved`).
    public static func appendAltBeacon(_ frame: AltBeaconFrame, to buffer: inout [UInt8]) {
        buffer.append(0x1B)
        buffer.append(ADType.manufacturerData.rawValue)
        buffer.appendLittleEndian(frame.companyID)
        buffer.append(contentsOf: [0xBE, 0xAC] as [UInt8])
        buffer.appendBigEndian(frame.id1High)
        buffer.appendBigEndian(frame.id1Low)
        buffer.appendBigEndian(frame.id2)
        buffer.appendBigEndian(frame.id3)
        buffer.append(UInt8(bitPattern: frame.referenceRSSI))
        buffer.append(frame.reserved)
    }

    /// Appends the Eddystone service UUID list (`03 03 AA FE`) and a UID frame
    /// (`17 16 AA FE 00 tx namespace(10) instance(6) 00 00`).
    public static func appendEddystoneUID(_ frame: EddystoneUID, to buffer: inout [UInt8]) {
        appendEddystoneUUIDList(to: &buffer)
        buffer.append(contentsOf: [0x17, ADType.serviceData16.rawValue, 0xAA, 0xFE, EddystoneUID.frameType] as [UInt8])
        buffer.append(UInt8(bitPattern: frame.txPowerAt0m))
        buffer.appendBigEndian(frame.namespaceHigh)
        buffer.appendBigEndian(frame.namespaceLow)
        buffer.appendBigEndian(UInt16(truncatingIfNeeded: frame.instance >> 32))
        buffer.appendBigEndian(UInt32(truncatingIfNeeded: frame.instance))
        buffer.append(contentsOf: [0x00, 0x00] as [UInt8])
    }

    /// Appends the Eddystone service UUID list and a URL frame (`len 16 AA FE 10 tx scheme url…`).
    public static func appendEddystoneURL(_ frame: EddystoneURL, to buffer: inout [UInt8]) {
        appendEddystoneUUIDList(to: &buffer)
        buffer.append(UInt8(6 + frame.encodedURL.count))
        buffer.append(contentsOf: [ADType.serviceData16.rawValue, 0xAA, 0xFE, EddystoneURL.frameType] as [UInt8])
        buffer.append(UInt8(bitPattern: frame.txPowerAt0m))
        buffer.append(frame.schemeCode)
        frame.encodedURL.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    /// Appends the Eddystone service UUID list and an unencrypted TLM frame
    /// (`11 16 AA FE 20 00 battery temperature count uptime`).
    public static func appendEddystoneTLM(_ frame: EddystoneTLM, to buffer: inout [UInt8]) {
        appendEddystoneUUIDList(to: &buffer)
        buffer.append(contentsOf: [0x11, ADType.serviceData16.rawValue, 0xAA, 0xFE, EddystoneTLM.frameType, 0x00] as [UInt8])
        buffer.appendBigEndian(frame.batteryMillivolts)
        buffer.appendBigEndian(frame.temperatureRaw)
        buffer.appendBigEndian(frame.advertisingCount)
        buffer.appendBigEndian(frame.uptimeTenthsOfSeconds)
    }

    /// Appends a local name structure (0x09 complete or 0x08 shortened). The name must fit in 254 bytes.
    public static func appendLocalName(_ name: String, complete: Bool = true, to buffer: inout [UInt8]) {
        let utf8 = Array(name.utf8)
        precondition(utf8.count <= 254, "a local name must fit in one AD structure (254 bytes)")
        buffer.append(UInt8(utf8.count + 1))
        buffer.append(complete ? ADType.completeLocalName.rawValue : ADType.shortenedLocalName.rawValue)
        buffer.append(contentsOf: utf8)
    }

    /// Appends a Tx Power Level structure (`02 0A dBm`).
    public static func appendTxPowerLevel(_ dBm: Int8, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: [0x02, ADType.txPowerLevel.rawValue, UInt8(bitPattern: dBm)] as [UInt8])
    }

    /// Appends a manufacturer-specific structure (`len FF company payload…`). The payload must fit in 252 bytes.
    public static func appendManufacturerData(company: UInt16, payload: [UInt8], to buffer: inout [UInt8]) {
        precondition(payload.count <= 252, "manufacturer data must fit in one AD structure (252 bytes)")
        buffer.append(UInt8(payload.count + 3))
        buffer.append(ADType.manufacturerData.rawValue)
        buffer.appendLittleEndian(company)
        buffer.append(contentsOf: payload)
    }

    /// Appends a complete list of 16-bit service UUIDs (`len 03 uuid…`, little-endian).
    public static func appendServiceUUIDs16(_ uuids: [UInt16], to buffer: inout [UInt8]) {
        precondition(uuids.count <= 127, "a UUID list must fit in one AD structure")
        buffer.append(UInt8(2 * uuids.count + 1))
        buffer.append(ADType.completeServiceUUIDs16.rawValue)
        for uuid in uuids { buffer.appendLittleEndian(uuid) }
    }

    private static func appendEddystoneUUIDList(to buffer: inout [UInt8]) {
        buffer.append(contentsOf: [0x03, ADType.completeServiceUUIDs16.rawValue, 0xAA, 0xFE] as [UInt8])
    }
}
