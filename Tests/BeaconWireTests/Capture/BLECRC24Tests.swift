import Testing

@testable import BeaconWire

@Suite("BLECRC24")
struct BLECRC24Tests {
    @Test("the CRCs of captured advertising packets (checked valid by the nRF Sniffer) are reproduced")
    func capturedPackets() throws {
        // Header + payload and the 3 CRC bytes of mitll frames 2 and 57 (the sniffer flagged both CRC OK).
        let cases: [([UInt8], [UInt8])] = [
            (Array(SnifferFrameTests.nordicAdvInd[21..<59]), Array(SnifferFrameTests.nordicAdvInd[59...])),
            (Array(SnifferFrameTests.nordicScanRequest[21..<35]), Array(SnifferFrameTests.nordicScanRequest[35...])),
        ]
        for (pdu, crc) in cases {
            let valid = pdu.withUnsafeBytes { pduBytes in
                crc.withUnsafeBytes { crcBytes in BLECRC24.isValid(pdu: pduBytes, crc: crcBytes) }
            }
            #expect(valid)
            let expected = UInt32(crc[0]) | UInt32(crc[1]) << 8 | UInt32(crc[2]) << 16
            #expect(pdu.withUnsafeBytes { BLECRC24.compute($0) } == expected)
        }
    }

    @Test("bit reversal of the 24-bit initial value")
    func reversal() {
        #expect(BLECRC24.reversed24(0x55_5555) == 0xAA_AAAA)
        #expect(BLECRC24.reversed24(0x00_0001) == 0x80_0000)
    }
}
