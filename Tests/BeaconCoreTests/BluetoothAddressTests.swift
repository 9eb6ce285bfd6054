import Testing

@testable import BeaconCore

@Suite("BluetoothAddress")
struct BluetoothAddressTests {
    @Test("Wire bytes are least significant first; display is most significant first")
    func wireOrder() {
        let wire: [UInt8] = [0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa]
        let address = wire.withUnsafeBytes { BluetoothAddress(wireBytes: $0, at: 0) }
        #expect(address.description == "aa:bb:cc:dd:ee:ff")
        var out: [UInt8] = []
        address.appendWireBytes(to: &out)
        #expect(out == wire)
    }

    @Test(
        "Parsing accepts colons or dashes in either case and rejects the rest",
        arguments: [
            ("A4:C1:38:00:01:02", "a4:c1:38:00:01:02"),
            ("a4-c1-38-00-01-02", "a4:c1:38:00:01:02"),
        ])
    func parses(text: String, expected: String) {
        #expect(BluetoothAddress(text)?.description == expected)
    }

    @Test("Malformed addresses are rejected", arguments: ["", "a4:c1:38:00:01", "a4:c1:38:00:01:0g", "a4c:1:38:00:01:02"])
    func rejects(text: String) {
        #expect(BluetoothAddress(text) == nil)
    }
}
