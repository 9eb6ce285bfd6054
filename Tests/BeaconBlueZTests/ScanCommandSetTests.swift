import BeaconBlueZ
import Testing

@Suite("ScanCommandSet")
struct ScanCommandSetTests {
    @Test(
        "Extended only from HCI 5.0 (0x09) with LE Extended Advertising (bit 12)",
        arguments: [
            (UInt8(0x06), UInt64?.some(0x1000), ScanCommandSet.legacy), // 4.0, bit set: legacy (version)
            (0x08, 0x1000, .legacy), // 4.2
            (0x09, 0x1000, .extended), // 5.0 with the feature
            (0x09, 0x0FFF, .legacy), // 5.0 without it
            (0x0D, 0x1000, .extended), // 5.4
            (0x0D, nil, .legacy), // features unknown
        ])
    func selection(version: UInt8, features: UInt64?, expected: ScanCommandSet) {
        let chosen = ScanCommandSet.preferred(
            version: LocalVersion(hciVersion: version),
            features: features.map(LEFeatures.init(rawValue:)))
        #expect(chosen == expected)
    }

    @Test("Each set uses its own pair of opcodes")
    func opcodes() {
        let scan = ScanParameters.default
        #expect(ScanCommandSet.legacy.parametersCommand(scan).opcode.rawValue == 0x200B)
        #expect(ScanCommandSet.legacy.enableCommand(true).opcode.rawValue == 0x200C)
        #expect(ScanCommandSet.extended.parametersCommand(scan).opcode.rawValue == 0x2041)
        #expect(ScanCommandSet.extended.enableCommand(true).opcode.rawValue == 0x2042)
    }
}
