import BeaconBlueZ
import Testing

/// Command packets compared with bytes written out from the Core specification (Vol 4, Part E,
/// §5.4.1 packet format; §7 command layouts) and BlueZ's hcitool, one commented byte at a time.
@Suite("HCICommand")
struct HCICommandTests {
    @Test("HCI_Reset: OGF 0x03 OCF 0x0003, no parameters")
    func reset() {
        let expected: [UInt8] = [
            0x01, // H4: command packet
            0x03, 0x0C, // opcode 0x0C03 little-endian (OGF 0x03 << 10 | OCF 0x0003)
            0x00, // parameter length 0
        ]
        #expect(HCICommand.reset.packet == expected)
    }

    @Test("Read Local Version Information: OGF 0x04 OCF 0x0001, no parameters")
    func readLocalVersion() {
        let expected: [UInt8] = [
            0x01, // H4: command
            0x01, 0x10, // opcode 0x1001 (OGF 0x04 << 10 | OCF 0x0001)
            0x00, // no parameters
        ]
        #expect(HCICommand.readLocalVersion.packet == expected)
    }

    @Test("LE Read Local Supported Features: OGF 0x08 OCF 0x0003, no parameters")
    func leReadLocalSupportedFeatures() {
        let expected: [UInt8] = [
            0x01, // H4: command
            0x03, 0x20, // opcode 0x2003 (OGF 0x08 << 10 | OCF 0x0003)
            0x00, // no parameters
        ]
        #expect(HCICommand.leReadLocalSupportedFeatures.packet == expected)
    }

    @Test("LE Set Scan Parameters as hcitool lescan sends them (active, 10 ms / 10 ms)")
    func leSetScanParametersHcitool() throws {
        let expected: [UInt8] = [
            0x01, // H4: command
            0x0B, 0x20, // opcode 0x200B
            0x07, // 7 parameter bytes
            0x01, // LE_Scan_Type: active
            0x10, 0x00, // LE_Scan_Interval 0x0010 × 0.625 ms = 10 ms
            0x10, 0x00, // LE_Scan_Window 0x0010 = 10 ms
            0x00, // Own_Address_Type: public
            0x00, // Scanning_Filter_Policy: accept all
        ]
        let scan = try ScanParameters(type: .active, interval: .milliseconds(10), window: .milliseconds(10))
        #expect(HCICommand.leSetScanParameters(scan).packet == expected)
    }

    @Test("LE Set Scan Parameters: passive, 100 ms / 50 ms, random own address")
    func leSetScanParametersPassive() throws {
        let expected: [UInt8] = [
            0x01, 0x0B, 0x20, 0x07, // command 0x200B, 7 bytes
            0x00, // passive
            0xA0, 0x00, // interval 160 × 0.625 ms = 100 ms
            0x50, 0x00, // window 80 × 0.625 ms = 50 ms
            0x01, // own address: random
            0x00, // accept all
        ]
        let scan = try ScanParameters(
            type: .passive, interval: .milliseconds(100), window: .milliseconds(50),
            ownAddressType: .random)
        #expect(HCICommand.leSetScanParameters(scan).packet == expected)
    }

    @Test("LE Set Scan Enable: enable / disable with duplicate filtering off")
    func leSetScanEnable() {
        let enable: [UInt8] = [
            0x01, 0x0C, 0x20, // command 0x200C
            0x02, // 2 parameter bytes
            0x01, // LE_Scan_Enable: on
            0x00, // Filter_Duplicates: off
        ]
        let disable: [UInt8] = [
            0x01, 0x0C, 0x20, 0x02,
            0x00, // LE_Scan_Enable: off
            0x00,
        ] // Filter_Duplicates: off
        #expect(HCICommand.leSetScanEnable(true).packet == enable)
        #expect(HCICommand.leSetScanEnable(false).packet == disable)
    }

    @Test("LE Set Extended Scan Parameters: LE 1M only, passive, 100 ms / 100 ms")
    func leSetExtendedScanParameters() throws {
        let expected: [UInt8] = [
            0x01, // H4: command
            0x41, 0x20, // opcode 0x2041 (OGF 0x08, OCF 0x0041)
            0x08, // 3 + 5 × (one PHY) = 8 parameter bytes
            0x00, // Own_Address_Type: public
            0x00, // Scanning_Filter_Policy: accept all
            0x01, // Scanning_PHYs: bit 0 = LE 1M
            0x00, // Scan_Type[0]: passive
            0xA0, 0x00, // Scan_Interval[0] 160 × 0.625 ms = 100 ms
            0xA0, 0x00, // Scan_Window[0] 100 ms
        ]
        let scan = try ScanParameters(type: .passive, interval: .milliseconds(100), window: .milliseconds(100))
        #expect(HCICommand.leSetExtendedScanParameters(scan).packet == expected)
    }

    @Test("LE Set Extended Scan Enable: continuous, duplicates not filtered")
    func leSetExtendedScanEnable() {
        let expected: [UInt8] = [
            0x01, // H4: command
            0x42, 0x20, // opcode 0x2042
            0x06, // 6 parameter bytes
            0x01, // Enable
            0x00, // Filter_Duplicates: off
            0x00, 0x00, // Duration 0: scan until disabled
            0x00, 0x00, // Period 0: not periodic
        ]
        #expect(HCICommand.leSetExtendedScanEnable(true).packet == expected)
        #expect(HCICommand.leSetExtendedScanEnable(false).packet[4] == 0x00)
    }
}
