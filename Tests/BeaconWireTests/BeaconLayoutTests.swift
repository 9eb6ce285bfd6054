import BeaconCore
import BeaconWire
import Foundation
import Testing

/// Declarative beacon layouts: the three built-in frames written as layouts decode exactly what
/// the built-in decoders do — on every report of the real captures and of the synthetic HCI
/// streams, and on encoded frames of each kind — and a vendor's frame needs only a layout.
@Suite("BeaconLayout")
struct BeaconLayoutTests {
    /// Every advertising report's data in a capture.
    static func reportsData(_ name: String) throws -> [[UInt8]] {
        var all: [[UInt8]] = []
        try CaptureDecoder().decode(CaptureFile(path: CaptureFixtures.path(name))) { item in
            if case .advertisement(let advertisement) = item { all.append(Array(advertisement.report.data)) }
        }
        return all
    }

    static func builtIn(_ data: [UInt8]) -> BeaconFrame? {
        data.withUnsafeBytes { BeaconFrame.find(inAdvertisingData: $0) }
    }

    static func layouts(_ data: [UInt8]) -> BeaconFrame? {
        data.withUnsafeBytes { bytes in
            // The same precedence as the built-in decoder: the first AD structure that holds a frame.
            var structures = ADStructureIterator(bytes)
            while let structure = try? structures.next() {
                for layout in BeaconLayout.builtIn {
                    let type: UInt8 = layout.isServiceData ? 0x16 : 0xFF
                    if structure.type.rawValue == type, let frame = layout.frame(inStructureData: structure.data) { return frame }
                }
            }
            return nil
        }
    }

    @Test(
        "the built-in layouts decode every report of the captures as the built-in decoders do",
        arguments: CaptureFixtures.oracleCaptures + ["hci_2k_seed1.btsnoop", "hci_2k_seed1_ext.btsnoop"])
    func sameAsBuiltIn(_ capture: String) throws {
        let reports = try Self.reportsData(capture)
        #expect(!reports.isEmpty)
        var beacons = 0
        for data in reports {
            let expected = Self.builtIn(data)
            if expected != nil { beacons += 1 }
            #expect(Self.layouts(data) == expected, "report data \(data.map { String(format: "%02x", $0) }.joined())")
        }
        // The synthetic streams and csacca hold beacons; the sniffer captures may hold none.
        if capture.hasPrefix("hci_2k") || capture.hasPrefix("csacca") { #expect(beacons > 0) }
    }

    @Test("encoded frames of each kind decode to the same identity and 1 m power")
    func encodedFrames() throws {
        let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
        var iBeacon: [UInt8] = [], altBeacon: [UInt8] = [], eddystone: [UInt8] = []
        AdvertisingDataEncoder.appendFlags(to: &iBeacon)
        AdvertisingDataEncoder.appendIBeacon(IBeaconFrame(uuid: uuid, major: 258, minor: 772, measuredPower: -59), to: &iBeacon)
        AdvertisingDataEncoder.appendAltBeacon(
            AltBeaconFrame(companyID: 0x0118, id1: uuid, id2: 7, id3: 9, referenceRSSI: -61),
            to: &altBeacon)
        AdvertisingDataEncoder.appendEddystoneUID(
            EddystoneUID(
                txPowerAt0m: -20, namespaceHigh: 0x0102,
                namespaceLow: 0x0304_0506_0708_090A, instance: 0xAABB),
            to: &eddystone)
        #expect(Self.layouts(iBeacon) == BeaconFrame(id: .iBeacon(uuid: uuid, major: 258, minor: 772), measuredPower: -59))
        #expect(Self.layouts(altBeacon) == BeaconFrame(id: .altBeacon(id1: uuid, id2: 7, id3: 9), measuredPower: -61))
        #expect(
            Self.layouts(eddystone)
                == BeaconFrame(
                    id: .eddystoneUID(
                        namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A,
                        instance: 0xAABB), measuredPower: -61))
        for data in [iBeacon, altBeacon, eddystone] { #expect(Self.layouts(data) == Self.builtIn(data)) }
    }

    @Test("a vendor frame decodes with its layout and is no beacon without it")
    func vendorFrame() throws {
        // Company 0x0059, then `AC BE`, a 16-byte id, two 2-byte ids, the power.
        let layout = try BeaconLayout("m:2-3=acbe,i:4-19,i:20-21,i:22-23,p:24-24", kind: .altBeacon)
        var data: [UInt8] = []
        AdvertisingDataEncoder.appendManufacturerData(
            company: 0x0059,
            payload: [0xAC, 0xBE] + Array(1...16) + [0x00, 0x05, 0x01, 0x00, 0xC3],
            to: &data)
        #expect(Self.builtIn(data) == nil)
        let frame = try #require(data.withUnsafeBytes { layout.frame(inAdvertisingData: $0) })
        #expect(frame.id == .altBeacon(id1High: 0x0102_0304_0506_0708, id1Low: 0x090A_0B0C_0D0E_0F10, id2: 5, id3: 256))
        #expect(frame.measuredPower == -61)
        var other = data
        other[5] = 0xBF // the second match byte
        #expect(other.withUnsafeBytes { layout.frame(inAdvertisingData: $0) } == nil)
        #expect(Array(data.prefix(20)).withUnsafeBytes { layout.frame(inAdvertisingData: $0) } == nil, "too short")
    }

    @Test(
        "layouts that cannot work are refused, naming the term",
        arguments: [
            ("i:4-19,i:20-21,i:22-23", "give at least one m: or s: term"),
            ("m:2-3=beac,i:4-19,i:20-21", "needs identifiers of 16, 2, 2 bytes"),
            ("m:2-3=bea,i:4-19,i:20-21,i:22-23", "two hex digits per byte"),
            ("m:2-3=beac,i:4-19,i:20-21,i:22-23,q:24-24", "unknown term 'q'"),
            ("m:3-2=beac,i:4-19,i:20-21,i:22-23", "0 ≤ start ≤ end < 256"),
            ("m:2-3=beac,i:4-19,i:20-21,i:22-23,p:24-25", "the power is one byte"),
            ("m:2-3=beac,i:4-19,i:20-21,i:22-23,p:24-24:x", "whole number of dB"),
        ])
    func refused(_ text: String, _ message: String) {
        let error = #expect(throws: BeaconLayoutError.self) { try BeaconLayout(text, kind: .altBeacon) }
        #expect(error.map { "\($0)".contains(message) } == true, "\(String(describing: error))")
    }

    @Test("parsers never crash: every prefix and random bytes through every layout")
    func robust() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            for layout in BeaconLayout.builtIn {
                _ = bytes.withUnsafeBytes { layout.frame(inStructureData: $0) }
                _ = bytes.withUnsafeBytes { layout.frame(inAdvertisingData: $0) }
            }
        }
    }
}
