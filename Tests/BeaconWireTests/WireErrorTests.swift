import BeaconWire
import Testing

@Suite("WireError")
struct WireErrorTests {
    @Test("keeps at most eight offending bytes")
    func bytesAreCapped() {
        let error = WireError(.truncatedReport, offset: 5, bytes: Array(1...12))
        #expect(error.bytes == Array(1...8))
        #expect(WireError(.truncatedReport, offset: 5, bytes: []).bytes == [])
    }

    @Test("the description says what, where, which bytes and what to do")
    func description() {
        let text = WireError(.unknownPacketType, offset: 17, bytes: [0x00, 0xFF]).description
        #expect(text.contains("unknown H4 packet type"))
        #expect(text.contains("offset 17"))
        #expect(text.contains("00 ff"))
        #expect(text.contains("resynchronises"))
    }

    @Test("shifting moves the offset and keeps the bytes")
    func shifted() {
        let error = WireError(.truncatedADStructure, offset: 3, bytes: [0x1A]).shifted(by: 14)
        #expect(error == WireError(.truncatedADStructure, offset: 17, bytes: [0x1A]))
    }

    @Test("every kind has a description", arguments: WireError.Kind.allCases)
    func everyKindDescribed(kind: WireError.Kind) {
        #expect(WireError(kind, offset: 0, bytes: [1]).description.count > 40)
    }
}
