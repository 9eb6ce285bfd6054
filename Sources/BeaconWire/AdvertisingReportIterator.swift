import BeaconCore

/// Walks the advertising reports of one H4 HCI event packet without allocating.
///
/// Give it a whole packet starting at the 0x04 H4 type byte. Packets that are not LE Meta events
/// carrying an LE Advertising Report (0x02), LE Directed Advertising Report (0x0B) or LE Extended
/// Advertising Report (0x0D) yield no reports and no error. A malformed event throws one
/// ``WireError`` (offset from the H4 type byte) after the reports before the fault, and then the
/// iterator is finished.
///
/// Reports are laid out one after another, each with all its fields: the Core Specification's
/// rule for arrayed parameters (v5.0 Vol 2 Part E §5.2: "ParameterA[0], ParameterB[0],
/// ParameterA[1], ParameterB[1] …"), which is also how Linux and BlueZ read them.
public struct AdvertisingReportIterator {
    @usableFromInline let packet: UnsafeRawBufferPointer
    @usableFromInline var position: Int
    @usableFromInline var end: Int
    @usableFromInline var remaining: Int
    @usableFromInline var kind: AdvertisingReportKind
    /// A fault found by `init`, thrown by the first `next()` (kept as kind + offset: a small,
    /// trivially copied iterator is much faster than one holding an optional error).
    @usableFromInline var headerErrorKind: WireError.Kind?
    @usableFromInline var headerErrorOffset: Int

    /// Largest Num_Reports of LE Advertising and LE Directed Advertising Reports.
    public static let maximumLegacyReports = 25
    /// Largest Num_Reports of LE Extended Advertising Reports.
    public static let maximumExtendedReports = 10

    /// Prepares to walk the reports of `packet` (an H4 packet starting at its type byte).
    ///
    /// Every index below is checked against `packet.count` before it is read; the arithmetic on
    /// them wraps (`&+`, `&-`) because the operands are bounded by the packet's length.
    @inlinable @inline(__always)
    public init(event packet: UnsafeRawBufferPointer) {
        self.packet = packet
        position = 0
        end = 0
        remaining = 0
        kind = .legacy
        headerErrorKind = nil
        headerErrorOffset = 0
        let count = packet.count
        // 0x04 (event), 0x3E (LE Meta), read as one little-endian word.
        guard count >= 2, packet.word16(at: 0) == 0x3E04 else { return }
        let subevent: AdvertisingReportKind
        if count >= 5, Int(packet.byte(at: 2)) &+ 3 == count {
            // The common case, with one length check: the whole header is there and the
            // parameter length matches the packet.
            switch packet.byte(at: 3) {
            case 0x02: subevent = .legacy
            case 0x0D: subevent = .extended
            case 0x0B: subevent = .directed
            default: return
            }
        } else {
            if let (kind, offset) = Self.headerFault(packet) {
                headerErrorKind = kind
                headerErrorOffset = offset
            }
            return
        }
        let reports = Int(packet.byte(at: 4))
        let limit = subevent == .extended ? Self.maximumExtendedReports : Self.maximumLegacyReports
        guard reports >= 1, reports <= limit else {
            headerErrorKind = .invalidReportCount
            headerErrorOffset = 4
            return
        }
        kind = subevent
        position = 5
        end = count
        remaining = reports
    }

    /// The next report, `nil` after the last one; throws when the event is malformed.
    @inlinable @inline(__always)
    public mutating func next() throws(WireError) -> AdvertisingReport? {
        if let errorKind = headerErrorKind {
            headerErrorKind = nil
            throw Self.error(errorKind, headerErrorOffset, packet)
        }
        guard remaining > 0 else {
            if position < end {
                let error = Self.error(.trailingBytes, position, packet)
                position = end
                throw error
            }
            return nil
        }
        remaining &-= 1
        do {
            switch kind {
            case .legacy: return try nextLegacy()
            case .extended: return try nextExtended()
            case .directed, .linkLayer: return try nextDirected()
            }
        } catch {
            remaining = 0
            position = end
            throw error
        }
    }

    // In the three readers below, `p = position` and `end` satisfy 0 <= p <= end == packet.count,
    // so once `end &- p >= n` is checked, bytes p ..< p + n are in the packet.

    @inlinable @inline(__always)
    mutating func nextLegacy() throws(WireError) -> AdvertisingReport {
        let p = position
        let available = end &- p
        guard available >= 10 else { throw Self.error(.truncatedReport, p, packet) }
        let rawAddressType = packet.byte(at: p &+ 1)
        guard rawAddressType <= 0x03, let addressType = AddressType(rawValue: rawAddressType)
        else { throw Self.error(.invalidAddressType, p &+ 1, packet) }
        let length = Int(packet.byte(at: p &+ 8))
        guard length <= 31 else { throw Self.error(.invalidDataLength, p &+ 8, packet) }
        guard available >= 10 &+ length else { throw Self.error(.truncatedReport, p, packet) }
        position = p &+ 10 &+ length
        return AdvertisingReport(
            kind: .legacy, eventType: UInt16(packet.byte(at: p)), addressType: addressType,
            address: packet.wireAddress(at: p &+ 2),
            rssi: Self.signal(packet.byte(at: p &+ 9 &+ length)),
            data: packet.unsafeSlice(from: p &+ 9, count: length))
    }

    @inlinable @inline(__always)
    mutating func nextExtended() throws(WireError) -> AdvertisingReport {
        let p = position
        let available = end &- p
        guard available >= 24 else { throw Self.error(.truncatedReport, p, packet) }
        let eventType = packet.word16(at: p) & 0x007F
        let rawAddressType = packet.byte(at: p &+ 2)
        guard rawAddressType <= 0x03 || rawAddressType == 0xFF, let addressType = AddressType(rawValue: rawAddressType)
        else { throw Self.error(.invalidAddressType, p &+ 2, packet) }
        let length = Int(packet.byte(at: p &+ 23))
        guard available >= 24 &+ length else { throw Self.error(.truncatedReport, p, packet) }
        var directAddressType: AddressType?
        var directAddress: BluetoothAddress?
        if eventType & 0x04 != 0 {
            guard let type = Self.directAddressType(packet.byte(at: p &+ 16))
            else { throw Self.error(.invalidAddressType, p &+ 16, packet) }
            directAddressType = type
            directAddress = packet.wireAddress(at: p &+ 17)
        }
        let secondaryPHY = packet.byte(at: p &+ 10)
        let sid = packet.byte(at: p &+ 11)
        let interval = packet.word16(at: p &+ 14)
        position = p &+ 24 &+ length
        return AdvertisingReport(
            kind: .extended, eventType: eventType, addressType: addressType,
            address: packet.wireAddress(at: p &+ 3),
            rssi: Self.signal(packet.byte(at: p &+ 13)), txPower: Self.signal(packet.byte(at: p &+ 12)),
            primaryPHY: packet.byte(at: p &+ 9), secondaryPHY: secondaryPHY == 0 ? nil : secondaryPHY,
            sid: sid == 0xFF ? nil : sid, dataStatus: AdvertisingDataStatus(extendedEventType: eventType),
            directAddressType: directAddressType, directAddress: directAddress,
            periodicAdvertisingInterval: interval == 0 ? nil : interval,
            data: packet.unsafeSlice(from: p &+ 24, count: length))
    }

    @inlinable @inline(__always)
    mutating func nextDirected() throws(WireError) -> AdvertisingReport {
        let p = position
        guard end &- p >= 16 else { throw Self.error(.truncatedReport, p, packet) }
        let rawAddressType = packet.byte(at: p &+ 1)
        guard rawAddressType <= 0x03, let addressType = AddressType(rawValue: rawAddressType)
        else { throw Self.error(.invalidAddressType, p &+ 1, packet) }
        guard let directType = Self.directAddressType(packet.byte(at: p &+ 8))
        else { throw Self.error(.invalidAddressType, p &+ 8, packet) }
        position = p &+ 16
        return AdvertisingReport(
            kind: .directed, eventType: UInt16(packet.byte(at: p)), addressType: addressType,
            address: packet.wireAddress(at: p &+ 2), rssi: Self.signal(packet.byte(at: p &+ 15)),
            directAddressType: directType, directAddress: packet.wireAddress(at: p &+ 9),
            data: packet.unsafeSlice(from: p &+ 16, count: 0))
    }

    /// Why an LE Meta event that is shorter than 5 bytes or whose length byte disagrees with its
    /// size yields no reports: the fault (kind and offset) to throw, or `nil` when it is simply
    /// not an advertising report.
    @usableFromInline
    static func headerFault(_ packet: UnsafeRawBufferPointer) -> (WireError.Kind, Int)? {
        let count = packet.count
        guard count >= 3 else { return (.truncatedPacket, 0) }
        let declared = Int(packet[2]) + 3
        guard count <= declared else { return (.packetLengthMismatch, declared) }
        guard count == declared else { return (.truncatedPacket, 0) }
        guard count >= 4 else { return nil }
        switch packet[3] {
        case 0x02, 0x0B, 0x0D: return (.truncatedPacket, 0) // count == 4: no Num_Reports
        default: return nil
        }
    }

    /// RSSI / TX power: 127 means "not available".
    @inlinable
    static func signal(_ byte: UInt8) -> Int8? {
        byte == 0x7F ? nil : Int8(bitPattern: byte)
    }

    /// Direct_Address_Type: 0x00…0x03, or 0xFE (a random address the controller could not
    /// resolve), reported as `.random`.
    @inlinable
    static func directAddressType(_ byte: UInt8) -> AddressType? {
        byte == 0xFE ? .random : (byte <= 0x03 ? AddressType(rawValue: byte) : nil)
    }

    @usableFromInline
    static func error(_ kind: WireError.Kind, _ offset: Int, _ packet: UnsafeRawBufferPointer) -> WireError {
        WireError(kind, at: offset, in: packet)
    }
}
