import BeaconCore
import Testing

@testable import BeaconWire

@Suite("SnifferFrame and AdvertisingChannelPDU: annotated sniffer records")
struct SnifferFrameTests {
    /// mitll frame 2 (nRF Sniffer, protocol version 2), annotated field by field.
    static let nordicAdvInd: [UInt8] = [
        0x0B, // board ID
        0x3E, 0x00, // payload length 62 (LE)
        0x02, // protocol version 2
        0x2A, 0x00, // packet counter
        0x06, // packet ID: EVENT_PACKET
        0x0A, // event header length 10
        0x01, // flags: CRC OK, slave → master, 1M PHY
        0x26, // channel 38
        0x41, // RSSI 65 → −65 dBm
        0x00, 0x00, // event counter
        0xC6, 0x3C, 0x00, 0x00, // delta time
        0xD6, 0xBE, 0x89, 0x8E, // access address 0x8E89BED6
        0x40, 0x24, // header: ADV_IND, TxAdd 1; length 36
        0xBB, 0x26, 0x94, 0xC0, 0x42, 0x74, // AdvA 74:42:c0:94:26:bb
        0x02, 0x01, 0x1A, // Flags
        0x02, 0x0A, 0x08, // Tx Power Level 8
        0x0B, 0x09, 0x54, 0x65, 0x73, 0x74, 0x50, 0x68, 0x6F, 0x6E, 0x65, 0x34, // "TestPhone4"
        0x0B, 0xFF, 0x4C, 0x00, 0x10, 0x06, 0x67, 0x1E, 0x5C, 0xFA, 0xDB, 0xD3, // Apple 0x10
        0x82, 0x3F, 0xA8, // CRC
    ]

    /// mitll frame 57: a SCAN_REQ, header 0xC3 (TxAdd 1, RxAdd 1).
    static let nordicScanRequest: [UInt8] = [
        0x0B, 0x1F, 0x00, 0x02, 0x61, 0x00, 0x06, // board, length 31, v2, counter, EVENT_PACKET
        0x0A, 0x01, 0x26, 0x47, 0x00, 0x00, 0x96, 0x00, 0x00, 0x00, // CRC OK, channel 38, RSSI −71
        0xD6, 0xBE, 0x89, 0x8E, 0xC3, 0x0C, // AA; SCAN_REQ, TxAdd 1, RxAdd 1; length 12
        0xD3, 0x8B, 0x90, 0xF4, 0x49, 0x02, // ScanA 02:49:f4:90:8b:d3
        0xBB, 0x26, 0x94, 0xC0, 0x42, 0x74, // AdvA 74:42:c0:94:26:bb
        0x2D, 0xF8, 0x0E, // CRC
    ]

    /// bostonmesh frame 1 (LINKTYPE 256): RF channel 0, no signal power, flags 0x0001 (dewhitened).
    static let phdrAdvNonconn: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, // RF channel 0, signal, noise, AA offenses
        0x00, 0x00, 0x00, 0x00, // reference access address
        0x01, 0x00, // flags: dewhitened only
        0xD6, 0xBE, 0x89, 0x8E, // access address
        0x42, 0x0E, // ADV_NONCONN_IND, TxAdd 1; length 14
        0x6F, 0xBB, 0x30, 0x05, 0x44, 0xDA, // AdvA da:44:05:30:bb:6f
        0x07, 0xFF, 0x4C, 0x00, 0x12, 0x02, 0x00, 0x02, // Apple 0x12
        0x1C, 0x7E, 0x6B, // CRC (correct per the oracle)
    ]

    @Test("nRF Sniffer header fields and an ADV_IND")
    func nordic() throws {
        try Self.nordicAdvInd.withUnsafeBytes { bytes in
            let frame = try SnifferFrame.parse(bytes, linkType: .nordicBLE)
            #expect(frame.channel == 38)
            #expect(frame.rfChannel == 12)
            #expect(frame.rssi == -65)
            #expect(frame.crcOK)
            #expect(frame.phy == 0)
            #expect(frame.packet.count == 4 + 2 + 36 + 3)
            let pdu = try #require(try AdvertisingChannelPDU.parse(frame.packet))
            #expect(pdu.type == .advInd)
            #expect(pdu.advertiserAddress?.description == "74:42:c0:94:26:bb")
            #expect(pdu.advertiserAddressIsRandom)
            #expect(Array(pdu.advertisingData) == Array(Self.nordicAdvInd[29..<59]))
        }
    }

    @Test("a SCAN_REQ names the advertiser second, typed by RxAdd")
    func scanRequest() throws {
        try Self.nordicScanRequest.withUnsafeBytes { bytes in
            let frame = try SnifferFrame.parse(bytes, linkType: .nordicBLE)
            #expect(frame.rssi == -71)
            let pdu = try #require(try AdvertisingChannelPDU.parse(frame.packet))
            #expect(pdu.type == .scanReq)
            #expect(pdu.type?.isAdvertisement == false)
            #expect(pdu.peerAddress?.description == "02:49:f4:90:8b:d3")
            #expect(pdu.advertiserAddress?.description == "74:42:c0:94:26:bb")
            #expect(pdu.advertiserAddressIsRandom)
            #expect(pdu.advertisingData.isEmpty)
        }
    }

    @Test("LINKTYPE 256: RF channel, absent signal power, computed CRC")
    func withPHDR() throws {
        try Self.phdrAdvNonconn.withUnsafeBytes { bytes in
            let frame = try SnifferFrame.parse(bytes, linkType: .leLinkLayerWithPHDR)
            #expect(frame.channel == 37)
            #expect(frame.rssi == nil)
            #expect(frame.crcOK)
            let pdu = try #require(try AdvertisingChannelPDU.parse(frame.packet))
            #expect(pdu.type == .advNonconnInd)
            #expect(pdu.advertiserAddress?.description == "da:44:05:30:bb:6f")
        }
        var corrupted = Self.phdrAdvNonconn
        corrupted[25] ^= 0x01 // one bit of the AD payload
        let corruptedCRCOK = try corrupted.withUnsafeBytes { bytes in
            try SnifferFrame.parse(bytes, linkType: .leLinkLayerWithPHDR).crcOK
        }
        #expect(corruptedCRCOK == false)
        var measured = Self.phdrAdvNonconn
        measured[1] = 0xC4 // −60 dBm
        measured[8] = 0x03 // signal power valid
        let rssi = try measured.withUnsafeBytes { bytes in
            try SnifferFrame.parse(bytes, linkType: .leLinkLayerWithPHDR).rssi
        }
        #expect(rssi == -60)
    }

    @Test(
        "RF channel ↔ channel index (Core Vol 6 Part B §1.4.1)",
        arguments: [(0, 37), (1, 0), (11, 10), (12, 38), (13, 11), (38, 36), (39, 39)] as [(UInt8, UInt8)])
    func channels(rf: UInt8, index: UInt8) {
        #expect(SnifferFrame.channelIndex(rfChannel: rf) == index)
        #expect(SnifferFrame.rfChannel(channelIndex: index) == rf)
    }

    /// The error `SnifferFrame.parse` throws for `bytes`, if any.
    static func snifferError(_ bytes: [UInt8], _ linkType: LinkType = .nordicBLE) -> LinkLayerError? {
        bytes.withUnsafeBytes { buffer in
            do throws(LinkLayerError) {
                _ = try SnifferFrame.parse(buffer, linkType: linkType)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The error `AdvertisingChannelPDU.parse` throws for `packet`, if any, and whether it found a PDU.
    static func pduResult(_ packet: [UInt8]) -> (error: LinkLayerError?, isAdvertising: Bool) {
        packet.withUnsafeBytes { buffer in
            do throws(LinkLayerError) {
                return (nil, try AdvertisingChannelPDU.parse(buffer) != nil)
            } catch {
                return (error, false)
            }
        }
    }

    @Test("short or foreign records are typed errors with offsets")
    func errors() {
        let short = Self.snifferError([0x0B, 0x3E, 0x00])
        #expect(short?.kind == .truncatedHeader)
        #expect(short?.offset == 0)
        #expect(short?.bytes == [0x0B, 0x3E, 0x00])
        var ping = Self.nordicAdvInd
        ping[6] = 0x0E // PING_RESP
        #expect(Self.snifferError(ping)?.kind == .notARadioPacket)
        #expect(Self.snifferError(ping)?.offset == 6)
        var legacy = Self.nordicAdvInd
        legacy[0] = 0xBE
        legacy[1] = 0xEF
        #expect(Self.snifferError(legacy)?.kind == .unsupportedSnifferVersion)
        #expect(Self.snifferError([0, 0, 0, 0, 0, 0, 0, 0, 0], .leLinkLayerWithPHDR)?.kind == .truncatedHeader)
        // An ADV_IND cut before AdvA is complete.
        let cut = Self.pduResult([0xD6, 0xBE, 0x89, 0x8E, 0x40, 0x24, 0xBB, 0x26])
        #expect(cut.error?.kind == .truncatedPacket)
        #expect(cut.error?.offset == 6)
        // A data-channel packet is not an advertising PDU.
        let data = Self.pduResult([0x12, 0x34, 0x56, 0x78, 0x01, 0x00, 0, 0, 0])
        #expect(data.error == nil)
        #expect(data.isAdvertising == false)
    }

    @Test("an extended PDU's AdvA, ADI and TX power come from its extended header")
    func extendedHeader() throws {
        let packet: [UInt8] = [
            0xD6, 0xBE, 0x89, 0x8E,
            0x47, 0x0E, // ADV_EXT_IND (AUX_ADV_IND on a secondary channel), TxAdd 1, length 14
            0x0A, // extended header length 10 (flags 1 + AdvA 6 + ADI 2 + TxPower 1), mode 0
            0x49, // flags: AdvA, ADI, TxPower
            0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, // AdvA c6:05:04:03:02:01
            0x34, 0x52, // ADI: DID 0x234, SID 5
            0xF8, // TX power −8 dBm
            0x02, 0x01, 0x06, // AdvData: Flags
            0x00, 0x00, 0x00, // CRC (not checked here)
        ]
        try packet.withUnsafeBytes { bytes in
            let pdu = try #require(try AdvertisingChannelPDU.parse(bytes))
            #expect(pdu.type == .advExtInd)
            #expect(pdu.advertiserAddress?.description == "c6:05:04:03:02:01")
            #expect(pdu.sid == 5)
            #expect(pdu.txPower == -8)
            #expect(Array(pdu.advertisingData) == [0x02, 0x01, 0x06])
        }
    }
}
