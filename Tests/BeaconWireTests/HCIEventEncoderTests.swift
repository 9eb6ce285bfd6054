import BeaconCore
import BeaconWire
import Testing

@Suite("HCIEventEncoder")
struct HCIEventEncoderTests {
    @Test("LE Advertising Report encodes to the annotated event")
    func legacyEvent() {
        var bytes: [UInt8] = [0xAA] // existing content is kept
        HCIEventEncoder.appendLEAdvertisingReport(
            eventType: 0x03, addressType: .random, address: BluetoothAddress("C1:22:33:44:55:66")!, rssi: -72,
            data: AnnotatedPackets.iBeaconAdvertisingData, to: &bytes)
        #expect(bytes == [0xAA] + AnnotatedPackets.legacyIBeaconEvent)
    }

    @Test("LE Extended Advertising Report of a legacy PDU encodes to the annotated event")
    func extendedLegacyPDU() {
        var bytes: [UInt8] = []
        HCIEventEncoder.appendLEExtendedAdvertisingReport(
            eventType: 0x0010, addressType: .public, address: BluetoothAddress("11:22:33:44:55:66")!, rssi: -64,
            data: AnnotatedPackets.iBeaconAdvertisingData, to: &bytes)
        #expect(bytes == AnnotatedPackets.extendedIBeaconEvent)
    }

    @Test("LE Extended Advertising Report with every field encodes to the annotated event (reserved bit aside)")
    func extendedAllFields() {
        var bytes: [UInt8] = []
        HCIEventEncoder.appendLEExtendedAdvertisingReport(
            eventType: 0x0025, addressType: .random, address: BluetoothAddress("66:55:44:33:22:11")!, primaryPHY: 3,
            secondaryPHY: 2, sid: 5, txPower: -12, rssi: -80, periodicAdvertisingInterval: 0x0640,
            directAddressType: .random, directAddress: BluetoothAddress("C0:00:00:00:00:01")!,
            data: [0x02, 0x01, 0x06], to: &bytes)
        var expected = AnnotatedPackets.extendedDirectedEvent
        expected[6] = 0x00 // the annotated event sets reserved bit 8
        expected[21] = 0x01 // and uses 0xFE (unresolved random) where the encoder writes 0x01 (random)
        #expect(bytes == expected)
    }

    @Test("encoded events parse back to the fields they were made from")
    func encodeThenParse() throws {
        var bytes: [UInt8] = []
        HCIEventEncoder.appendLEAdvertisingReport(
            eventType: 0, addressType: .public,
            address: BluetoothAddress("01:02:03:04:05:06")!, rssi: nil,
            to: &bytes
        ) { AdvertisingDataEncoder.appendFlags(to: &$0) }
        let (reports, error) = AdvertisingReportIteratorTests.parse(bytes)
        #expect(error == nil)
        #expect(
            reports == [
                .init(
                    kind: .legacy, eventType: 0, addressType: .public, address: "01:02:03:04:05:06",
                    rssi: nil, data: [0x02, 0x01, 0x06])
            ])
    }
}
