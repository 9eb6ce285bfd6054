import BeaconCore
import BeaconWire
import Foundation
import Testing

@Suite("BeaconFrame")
struct BeaconFrameTests {
    static func find(_ bytes: [UInt8]) -> BeaconFrame? {
        bytes.withUnsafeBytes { BeaconFrame.find(inAdvertisingData: $0) }
    }

    @Test("iBeacon: UUID, big-endian major/minor, measured power")
    func iBeacon() throws {
        let frame = try #require(Self.find(AnnotatedPackets.iBeaconAdvertisingData))
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(frame.id == .iBeacon(uuid: uuid, major: 1, minor: 258))
        #expect(frame.measuredPower == -59)
    }

    @Test("AltBeacon: 20-byte id as id1/id2/id3, reference RSSI")
    func altBeacon() throws {
        let frame = try #require(Self.find([0x02, 0x01, 0x06] + AnnotatedFrames.altBeacon))
        let id1 = try #require(UUID(uuidString: "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"))
        #expect(frame.id == .altBeacon(id1: id1, id2: 1, id3: 2))
        #expect(frame.measuredPower == -59)
    }

    @Test("Eddystone-UID: namespace and instance; 0 m power converted to 1 m by −41 dB")
    func eddystoneUID() throws {
        let frame = try #require(Self.find(AnnotatedFrames.eddystoneUID))
        #expect(frame.id.kind == .eddystoneUID)
        #expect(frame.id.eddystoneNamespaceHex == "8b0ca750e18a4e8aa83a")
        #expect(frame.id.eddystoneInstanceHex == "0000000004d2")
        #expect(frame.measuredPower == Int8(-59)) // −18 dBm at 0 m − 41 dB
    }

    @Test(
        "frames without identity give nil",
        arguments: [AnnotatedFrames.eddystoneURL, AnnotatedFrames.eddystoneTLM, AnnotatedFrames.deviceData, []])
    func noIdentity(bytes: [UInt8]) {
        #expect(Self.find(bytes) == nil)
    }

    @Test("an identity before a malformed structure is kept")
    func identityBeforeMalformedStructure() {
        #expect(Self.find(AnnotatedPackets.iBeaconAdvertisingData + [0x09, 0xFF]) != nil)
        #expect(Self.find([0x09, 0xFF] + AnnotatedPackets.iBeaconAdvertisingData) == nil)
    }

    @Test("a sighting carries the report's address, type and RSSI and the frame's identity and power")
    func sightingFromReport() throws {
        let now = Timestamp(nanosecondsSinceEpoch: 1_735_689_600_000_000_000)
        let sighting = try AnnotatedPackets.legacyIBeaconEvent.withUnsafeBytes { bytes -> BeaconSighting? in
            var reports = HCIEventParser.advertisingReports(inEvent: bytes)
            let report = try #require(try reports.next())
            return BeaconSighting(report: report, timestamp: now)
        }
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(
            sighting
                == BeaconSighting(
                    timestamp: now, id: .iBeacon(uuid: uuid, major: 1, minor: 258),
                    address: BluetoothAddress("c1:22:33:44:55:66")!, addressType: .random,
                    rssi: -72, measuredPower: -59))
    }

    @Test("a report without beacon identity gives no sighting")
    func noSighting() throws {
        let sighting = try AnnotatedPackets.directedEvent.withUnsafeBytes { bytes -> BeaconSighting? in
            var reports = HCIEventParser.advertisingReports(inEvent: bytes)
            return BeaconSighting(report: try #require(try reports.next()), timestamp: .epoch)
        }
        #expect(sighting == nil)
    }
}
