import BeaconWire
import Foundation
import Testing

@Suite("ADElement")
struct ADElementTests {
    static func elements<R>(_ bytes: [UInt8], _ body: ([ADElement]) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw in
            var iterator = ADStructureIterator(raw)
            var elements: [ADElement] = []
            while let s = try? iterator.next() { elements.append(s.element) }
            return try body(elements)
        }
    }

    @Test("flags, names, TX power, UUID lists, manufacturer and service data decode by type")
    func deviceData() throws {
        try Self.elements(AnnotatedFrames.deviceData) { e in
            try #require(e.count == 8)
            guard case .flags(let flags) = e[0] else {
                Issue.record("flags: \(e[0])")
                return
            }
            #expect(flags == 0x1A)
            guard case .localName(let name) = e[1] else {
                Issue.record("name")
                return
            }
            #expect(!name.isComplete)
            #expect(name.string == "Keys")
            guard case .txPowerLevel(let power) = e[2] else {
                Issue.record("tx power")
                return
            }
            #expect(power == -12)
            guard case .serviceUUIDs(let list16) = e[3] else {
                Issue.record("16-bit list")
                return
            }
            #expect(list16.width == 2 && !list16.isComplete && list16.count == 2)
            #expect(list16.shortUUID(at: 0) == 0x180F && list16.shortUUID(at: 1) == 0x180A)
            #expect(list16.uuid(at: 0) == UUID(uuidString: "0000180F-0000-1000-8000-00805F9B34FB"))
            guard case .serviceUUIDs(let list32) = e[4] else {
                Issue.record("32-bit list")
                return
            }
            #expect(list32.width == 4 && list32.isComplete && list32.shortUUID(at: 0) == 0x1234_5678)
            guard case .serviceUUIDs(let list128) = e[5] else {
                Issue.record("128-bit list")
                return
            }
            #expect(list128.width == 16 && list128.count == 1)
            #expect(list128.uuid(at: 0) == UUID(uuidString: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
            guard case .manufacturerData(let company, let payload) = e[6] else {
                Issue.record("manufacturer")
                return
            }
            #expect(company == 0x0006 && Array(payload) == [0x01, 0x09])
            guard case .serviceData16(let uuid, let data) = e[7] else {
                Issue.record("service data")
                return
            }
            #expect(uuid == 0x180F && Array(data) == [0x64, 0x00])
        }
    }

    @Test("Apple manufacturer data that is not an iBeacon stays raw")
    func appleContinuityIsNotIBeacon() {
        // Apple Continuity "Nearby Info" (type 0x10), as in the synthetic noise.
        let bytes: [UInt8] = [0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0xDD, 0x4E, 0x01, 0xB0, 0xA9]
        Self.elements(bytes) { e in
            guard case .manufacturerData(let company, let payload) = e.first else {
                Issue.record("\(e)")
                return
            }
            #expect(company == 0x004C && payload.count == 7)
        }
    }

    @Test("an iBeacon one byte short is not an iBeacon")
    func shortIBeacon() {
        var bytes = AnnotatedPackets.iBeaconAdvertisingData
        bytes.removeLast()
        bytes[3] = 0x19
        Self.elements(bytes) { e in
            guard case .manufacturerData = e.last else {
                Issue.record("\(e)")
                return
            }
        }
    }
}
