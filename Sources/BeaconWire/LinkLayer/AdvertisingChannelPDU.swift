import BeaconCore

/// The fields of a link-layer advertising-channel PDU (access address 0x8E89BED6): a borrowed
/// view into the sniffer record.
///
/// Legacy PDUs carry AdvA in a fixed place (first for ADV_*_IND and SCAN_RSP, second for
/// SCAN_REQ and CONNECT_IND, after ScanA / InitA). Extended PDUs (types 7 and 8) carry it in the
/// common extended advertising header when its AdvA flag is set. The address type of AdvA is
/// TxAdd, except for SCAN_REQ and CONNECT_IND where RxAdd describes AdvA.
public struct AdvertisingChannelPDU {
    /// The raw 4-bit PDU type.
    public var rawType: UInt8
    /// The PDU type, when it is one the specification defines.
    public var type: AdvertisingPDUType? { AdvertisingPDUType(rawValue: rawType) }
    /// The TxAdd header bit (1 = the transmitter's address is random).
    public var txAdd: Bool
    /// The RxAdd header bit (1 = the receiver's address is random).
    public var rxAdd: Bool
    /// The advertiser's address (AdvA), when the PDU carries one.
    public var advertiserAddress: BluetoothAddress?
    /// Whether AdvA is a random address.
    public var advertiserAddressIsRandom: Bool
    /// The TargetA of directed PDUs, or ScanA / InitA of requests.
    public var peerAddress: BluetoothAddress?
    /// The TX power field of an extended header, in dBm.
    public var txPower: Int8?
    /// The advertising set ID of an extended header's ADI.
    public var sid: UInt8?
    /// AdvData / ScanRspData (empty for PDUs without data or when a malformed header hides it).
    public var advertisingData: UnsafeRawBufferPointer

    /// Decodes `packet` (access address, PDU header, payload, CRC). Returns `nil` when the access
    /// address is not the advertising one (a data-channel packet).
    /// - Throws: ``LinkLayerError`` (`truncatedPacket`) when the packet is shorter than its
    ///   header or than the address fields its type requires.
    public static func parse(_ packet: UnsafeRawBufferPointer) throws(LinkLayerError) -> AdvertisingChannelPDU? {
        guard packet.count >= 6 else { throw LinkLayerError(.truncatedPacket, at: 0, in: packet) }
        guard packet.littleEndianUInt32(at: 0) == SnifferFrame.advertisingAccessAddress else { return nil }
        let header = packet[4]
        let declared = Int(packet[5])
        // The payload is what the header declares, limited to what precedes the 3 CRC bytes.
        let payloadEnd = min(6 + declared, max(6, packet.count - 3))
        let payload = UnsafeRawBufferPointer(rebasing: packet[6..<payloadEnd])
        var pdu = AdvertisingChannelPDU(
            rawType: header & 0x0F, txAdd: header & 0x40 != 0, rxAdd: header & 0x80 != 0,
            advertiserAddress: nil, advertiserAddressIsRandom: header & 0x40 != 0,
            peerAddress: nil, txPower: nil, sid: nil,
            advertisingData: UnsafeRawBufferPointer(rebasing: payload[0..<0]))
        // Address fields are read from the bytes after the header even when a corrupted length
        // byte declares fewer (as tshark does); only a packet too short to hold them is an error.
        let afterHeader = UnsafeRawBufferPointer(rebasing: packet[6...])
        func address(at offset: Int) throws(LinkLayerError) -> BluetoothAddress {
            guard offset + 6 <= afterHeader.count else { throw LinkLayerError(.truncatedPacket, at: 6 + offset, in: packet) }
            return BluetoothAddress(wireBytes: afterHeader, at: offset)
        }
        switch pdu.rawType {
        case 0, 2, 4, 6:
            pdu.advertiserAddress = try address(at: 0)
            pdu.advertisingData = UnsafeRawBufferPointer(rebasing: payload[min(6, payload.count)...])
        case 1:
            pdu.advertiserAddress = try address(at: 0)
            pdu.peerAddress = try address(at: 6)
        case 3, 5:
            pdu.peerAddress = try address(at: 0)
            pdu.advertiserAddress = try address(at: 6)
            pdu.advertiserAddressIsRandom = pdu.rxAdd
        case 7, 8:
            pdu.readExtendedHeader(payload)
        default:
            break
        }
        return pdu
    }

    /// Reads the common extended advertising header (Core Vol 6 Part B §2.3.4) of `payload`.
    private mutating func readExtendedHeader(_ payload: UnsafeRawBufferPointer) {
        guard payload.count >= 1 else { return }
        let headerLength = Int(payload[0] & 0x3F)
        let headerEnd = 1 + headerLength
        if headerEnd <= payload.count {
            advertisingData = UnsafeRawBufferPointer(rebasing: payload[headerEnd...])
        }
        guard headerLength >= 1, payload.count >= 2 else { return }
        let flags = payload[1]
        var field = 2
        let end = min(headerEnd, payload.count)
        func take(_ size: Int) -> Int? {
            defer { field += size }
            return field + size <= end ? field : nil
        }
        if flags & 0x01 != 0, let at = take(6) { advertiserAddress = BluetoothAddress(wireBytes: payload, at: at) }
        if flags & 0x02 != 0, let at = take(6) { peerAddress = BluetoothAddress(wireBytes: payload, at: at) }
        if flags & 0x04 != 0 { _ = take(1) }
        if flags & 0x08 != 0, let at = take(2) { sid = payload[at + 1] >> 4 }
        if flags & 0x10 != 0 { _ = take(3) }
        if flags & 0x20 != 0 { _ = take(18) }
        if flags & 0x40 != 0, let at = take(1) { txPower = Int8(bitPattern: payload[at]) }
    }
}
