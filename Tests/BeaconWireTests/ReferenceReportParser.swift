import BeaconCore
import BeaconWire

/// The advertising-report walk and beacon lookup as they were before issue 30's speed work
/// (checked subscripts, checked arithmetic, byte-by-byte comparisons), kept as an oracle: the
/// fast parser must give exactly the same reports, errors and frames on any input.
enum ReferenceReportParser {
    /// One parsed report or the error that ended the event.
    enum Item: Equatable {
        case report(AdvertisingReportIteratorTests.Fields)
        case error(WireError)
    }

    /// Everything the reference walk yields for `packet` (an H4 packet at its type byte).
    static func items(inEvent packet: UnsafeRawBufferPointer) -> [Item] {
        let count = packet.count
        guard count >= 2, packet[0] == 0x04, packet[1] == 0x3E else { return [] }
        guard count >= 3 else { return [.error(error(.truncatedPacket, 0, packet))] }
        let declared = Int(packet[2]) + 3
        guard count <= declared else { return [.error(error(.packetLengthMismatch, declared, packet))] }
        guard count == declared else { return [.error(error(.truncatedPacket, 0, packet))] }
        guard count >= 4 else { return [] }
        let kind: AdvertisingReportKind
        switch packet[3] {
        case 0x02: kind = .legacy
        case 0x0D: kind = .extended
        case 0x0B: kind = .directed
        default: return []
        }
        guard count >= 5 else { return [.error(error(.truncatedPacket, 0, packet))] }
        let reports = Int(packet[4])
        guard reports >= 1, reports <= (kind == .extended ? 10 : 25) else {
            return [.error(error(.invalidReportCount, 4, packet))]
        }
        var items: [Item] = []
        var position = 5
        for _ in 0..<reports {
            let step: Result<(AdvertisingReport, Int), WireError>
            switch kind {
            case .legacy: step = legacy(packet, at: position)
            case .extended: step = extended(packet, at: position)
            default: step = directed(packet, at: position)
            }
            switch step {
            case .success(let (report, next)):
                items.append(.report(AdvertisingReportIteratorTests.Fields(report)))
                position = next
            case .failure(let failure):
                return items + [.error(failure)]
            }
        }
        if position < count { items.append(.error(error(.trailingBytes, position, packet))) }
        return items
    }

    static func legacy(_ packet: UnsafeRawBufferPointer, at p: Int) -> Result<(AdvertisingReport, Int), WireError> {
        let end = packet.count
        guard end - p >= 10 else { return .failure(error(.truncatedReport, p, packet)) }
        guard packet[p + 1] <= 0x03, let addressType = AddressType(rawValue: packet[p + 1]) else {
            return .failure(error(.invalidAddressType, p + 1, packet))
        }
        let length = Int(packet[p + 8])
        guard length <= 31 else { return .failure(error(.invalidDataLength, p + 8, packet)) }
        guard end - p >= 10 + length else { return .failure(error(.truncatedReport, p, packet)) }
        let report = AdvertisingReport(
            kind: .legacy, eventType: UInt16(packet[p]), addressType: addressType,
            address: BluetoothAddress(wireBytes: packet, at: p + 2), rssi: signal(packet[p + 9 + length]),
            data: UnsafeRawBufferPointer(rebasing: packet[(p + 9)..<(p + 9 + length)]))
        return .success((report, p + 10 + length))
    }

    static func extended(_ packet: UnsafeRawBufferPointer, at p: Int) -> Result<(AdvertisingReport, Int), WireError> {
        let end = packet.count
        guard end - p >= 24 else { return .failure(error(.truncatedReport, p, packet)) }
        let eventType = (UInt16(packet[p]) | UInt16(packet[p + 1]) << 8) & 0x007F
        let rawAddressType = packet[p + 2]
        guard rawAddressType <= 0x03 || rawAddressType == 0xFF, let addressType = AddressType(rawValue: rawAddressType)
        else { return .failure(error(.invalidAddressType, p + 2, packet)) }
        let length = Int(packet[p + 23])
        guard end - p >= 24 + length else { return .failure(error(.truncatedReport, p, packet)) }
        var directAddressType: AddressType?
        var directAddress: BluetoothAddress?
        if eventType & 0x04 != 0 {
            guard let type = directType(packet[p + 16]) else {
                return .failure(error(.invalidAddressType, p + 16, packet))
            }
            directAddressType = type
            directAddress = BluetoothAddress(wireBytes: packet, at: p + 17)
        }
        let secondaryPHY = packet[p + 10]
        let sid = packet[p + 11]
        let interval = UInt16(packet[p + 14]) | UInt16(packet[p + 15]) << 8
        let report = AdvertisingReport(
            kind: .extended, eventType: eventType, addressType: addressType,
            address: BluetoothAddress(wireBytes: packet, at: p + 3), rssi: signal(packet[p + 13]),
            txPower: signal(packet[p + 12]), primaryPHY: packet[p + 9],
            secondaryPHY: secondaryPHY == 0 ? nil : secondaryPHY, sid: sid == 0xFF ? nil : sid,
            dataStatus: AdvertisingDataStatus(extendedEventType: eventType), directAddressType: directAddressType,
            directAddress: directAddress, periodicAdvertisingInterval: interval == 0 ? nil : interval,
            data: UnsafeRawBufferPointer(rebasing: packet[(p + 24)..<(p + 24 + length)]))
        return .success((report, p + 24 + length))
    }

    static func directed(_ packet: UnsafeRawBufferPointer, at p: Int) -> Result<(AdvertisingReport, Int), WireError> {
        let end = packet.count
        guard end - p >= 16 else { return .failure(error(.truncatedReport, p, packet)) }
        guard packet[p + 1] <= 0x03, let addressType = AddressType(rawValue: packet[p + 1]) else {
            return .failure(error(.invalidAddressType, p + 1, packet))
        }
        guard let type = directType(packet[p + 8]) else { return .failure(error(.invalidAddressType, p + 8, packet)) }
        let report = AdvertisingReport(
            kind: .directed, eventType: UInt16(packet[p]), addressType: addressType,
            address: BluetoothAddress(wireBytes: packet, at: p + 2), rssi: signal(packet[p + 15]),
            directAddressType: type, directAddress: BluetoothAddress(wireBytes: packet, at: p + 9),
            data: UnsafeRawBufferPointer(rebasing: packet[(p + 16)..<(p + 16)]))
        return .success((report, p + 16))
    }

    /// The first beacon identity in `data`, found by walking the AD structures byte by byte.
    static func frame(inAdvertisingData data: UnsafeRawBufferPointer) -> BeaconFrame? {
        var p = 0
        while p < data.count {
            let length = Int(data[p])
            guard length > 0, data.count - p > length else { return nil }
            let type = data[p + 1]
            let d = Array(data[(p + 2)..<(p + 1 + length)])
            p += 1 + length
            if type == 0xFF, d.count >= 25, d[0] == 0x4C, d[1] == 0x00, d[2] == 0x02, d[3] == 0x15 {
                let frame = IBeaconFrame(
                    uuidHigh: word(d, 4, 8), uuidLow: word(d, 12, 8), major: UInt16(word(d, 20, 2)),
                    minor: UInt16(word(d, 22, 2)), measuredPower: Int8(bitPattern: d[24]))
                return BeaconFrame(id: frame.beaconID, measuredPower: frame.measuredPower)
            }
            if type == 0xFF, d.count >= 26, d[2] == 0xBE, d[3] == 0xAC {
                let frame = AltBeaconFrame(
                    companyID: UInt16(d[0]) | UInt16(d[1]) << 8, id1High: word(d, 4, 8), id1Low: word(d, 12, 8),
                    id2: UInt16(word(d, 20, 2)), id3: UInt16(word(d, 22, 2)), referenceRSSI: Int8(bitPattern: d[24]),
                    reserved: d[25])
                return BeaconFrame(id: frame.beaconID, measuredPower: frame.referenceRSSI)
            }
            if type == 0x16, d.count >= 20, d[0] == 0xAA, d[1] == 0xFE, d[2] == 0x00 {
                let frame = EddystoneUID(
                    txPowerAt0m: Int8(bitPattern: d[3]), namespaceHigh: UInt16(word(d, 4, 2)),
                    namespaceLow: word(d, 6, 8), instance: word(d, 14, 6))
                return BeaconFrame(id: frame.beaconID, measuredPower: frame.measuredPowerAt1m)
            }
        }
        return nil
    }

    /// `count` bytes of `d` from `offset`, big-endian.
    static func word(_ d: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        d[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func signal(_ byte: UInt8) -> Int8? { byte == 0x7F ? nil : Int8(bitPattern: byte) }

    static func directType(_ byte: UInt8) -> AddressType? {
        byte == 0xFE ? .random : (byte <= 0x03 ? AddressType(rawValue: byte) : nil)
    }

    /// The error the parser reports: up to eight bytes from `offset`, clamped to the packet.
    static func error(_ kind: WireError.Kind, _ offset: Int, _ packet: UnsafeRawBufferPointer) -> WireError {
        let start = min(max(offset, 0), packet.count)
        let end = min(packet.count, start + 8)
        return WireError(kind, offset: offset, window: UnsafeRawBufferPointer(rebasing: packet[start..<end]))
    }
}
