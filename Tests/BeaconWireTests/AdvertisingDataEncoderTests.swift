import BeaconWire
import Foundation
import Testing

@Suite("AdvertisingDataEncoder")
struct AdvertisingDataEncoderTests {
    static let iBeacon = IBeaconFrame(
        uuidHigh: airLocateUUIDHigh, uuidLow: airLocateUUIDLow, major: 1, minor: 258,
        measuredPower: -59)

    @Test("flags + iBeacon encode to the annotated bytes and decode back")
    func iBeaconRoundTrip() throws {
        var bytes: [UInt8] = []
        AdvertisingDataEncoder.appendFlags(to: &bytes)
        AdvertisingDataEncoder.appendIBeacon(Self.iBeacon, to: &bytes)
        #expect(bytes == AnnotatedPackets.iBeaconAdvertisingData)
        let decoded = AnnotatedPackets.iBeaconAdvertisingData.withUnsafeBytes { raw -> IBeaconFrame? in
            IBeaconFrame(manufacturerData: UnsafeRawBufferPointer(rebasing: raw[5...]))
        }
        #expect(decoded == Self.iBeacon)
        #expect(decoded?.uuid == UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
    }

    @Test("AltBeacon round trip")
    func altBeaconRoundTrip() throws {
        let id1 = try #require(UUID(uuidString: "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"))
        let frame = AltBeaconFrame(companyID: 0x0118, id1: id1, id2: 1, id3: 2, referenceRSSI: -59)
        var bytes: [UInt8] = []
        AdvertisingDataEncoder.appendAltBeacon(frame, to: &bytes)
        #expect(bytes == AnnotatedFrames.altBeacon)
        let decoded = bytes.withUnsafeBytes { AltBeaconFrame(manufacturerData: UnsafeRawBufferPointer(rebasing: $0[2...])) }
        #expect(decoded == frame)
    }

    @Test("Eddystone UID, URL and TLM round trips")
    func eddystoneRoundTrips() throws {
        let uid = EddystoneUID(txPowerAt0m: -18, namespaceHigh: 0x8B0C, namespaceLow: 0xA750_E18A_4E8A_A83A, instance: 1234)
        var bytes: [UInt8] = []
        AdvertisingDataEncoder.appendEddystoneUID(uid, to: &bytes)
        #expect(bytes == AnnotatedFrames.eddystoneUID)
        #expect(bytes.withUnsafeBytes { EddystoneUID(frame: UnsafeRawBufferPointer(rebasing: $0[8...])) } == uid)

        let url = try #require(EddystoneURL(url: "https://www.example.com/", txPowerAt0m: -21))
        bytes = []
        AdvertisingDataEncoder.appendEddystoneURL(url, to: &bytes)
        #expect(bytes == AnnotatedFrames.eddystoneURL)
        #expect(bytes.withUnsafeBytes { EddystoneURL(frame: UnsafeRawBufferPointer(rebasing: $0[8...])) } == url)

        let tlm = EddystoneTLM(
            batteryMillivolts: 3000, temperatureRaw: 0x1780, advertisingCount: 12345,
            uptimeTenthsOfSeconds: 123_456)
        bytes = []
        AdvertisingDataEncoder.appendEddystoneTLM(tlm, to: &bytes)
        #expect(bytes == AnnotatedFrames.eddystoneTLM)
        #expect(bytes.withUnsafeBytes { EddystoneTLM(frame: UnsafeRawBufferPointer(rebasing: $0[8...])) } == tlm)
    }

    @Test("name, TX power, UUID list and manufacturer data encode as annotated")
    func otherStructures() {
        var bytes: [UInt8] = []
        AdvertisingDataEncoder.appendLocalName("Keys", complete: false, to: &bytes)
        AdvertisingDataEncoder.appendTxPowerLevel(-12, to: &bytes)
        AdvertisingDataEncoder.appendManufacturerData(company: 0x0006, payload: [0x01, 0x09], to: &bytes)
        AdvertisingDataEncoder.appendServiceUUIDs16([0xFEAA], to: &bytes)
        let d = AnnotatedFrames.deviceData
        #expect(bytes == Array(d[3..<12]) + Array(d[42..<48]) + AnnotatedFrames.eddystoneUUIDList)
    }
}
