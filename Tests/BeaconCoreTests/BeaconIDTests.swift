import FoundationEssentials
import Testing

@testable import BeaconCore

@Suite("BeaconID")
struct BeaconIDTests {
    @Test("iBeacon identity keeps UUID, major and minor")
    func iBeacon() throws {
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let id = BeaconID.iBeacon(uuid: uuid, major: 1, minor: 2)
        #expect(id.uuid == uuid)
        #expect(id.major == 1 && id.minor == 2)
        #expect(id.description == "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2")
        #expect(id.high == 0xE2C5_6DB5_DFFB_48D2)
        #expect(id != BeaconID.altBeacon(id1: uuid, id2: 1, id3: 2))
    }

    @Test("Eddystone-UID splits namespace and instance")
    func eddystone() {
        let id = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAABB_CCDD_EEFF)
        #expect(id.eddystoneNamespaceHex == "0102030405060708090a")
        #expect(id.eddystoneInstanceHex == "aabbccddeeff")
        #expect(id.description == "eddystone-uid:0102030405060708090a:aabbccddeeff")
    }
}

@Suite("Proximity")
struct ProximityTests {
    @Test("Bands are ordered by closeness and unknown is within nothing")
    func ordering() {
        #expect(Proximity.immediate.isWithin(.near))
        #expect(Proximity.near.isWithin(.near))
        #expect(!Proximity.far.isWithin(.near))
        #expect(!Proximity.unknown.isWithin(.far))
        #expect(Proximity(name: "NEAR") == .near)
        #expect(Proximity(name: "close") == nil)
    }
}

@Suite("BeaconMatch")
struct BeaconMatchTests {
    static let uuid = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!
    static let other = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059936")!

    @Test("UUID, major and minor narrow the match; Eddystone never matches a UUID constraint")
    func uuidConstraint() {
        let id = BeaconID.iBeacon(uuid: Self.uuid, major: 1, minor: 2)
        #expect(BeaconMatch(.uuid(Self.uuid, major: nil, minor: nil)).matches(id))
        #expect(BeaconMatch(.uuid(Self.uuid, major: 1, minor: nil)).matches(id))
        #expect(BeaconMatch(.uuid(Self.uuid, major: 1, minor: 2)).matches(id))
        #expect(!BeaconMatch(.uuid(Self.uuid, major: 1, minor: 3)).matches(id))
        #expect(!BeaconMatch(.uuid(Self.uuid, major: 2, minor: nil)).matches(id))
        #expect(!BeaconMatch(.uuid(Self.other, major: nil, minor: nil)).matches(id))
        #expect(BeaconMatch(.uuid(Self.uuid, major: nil, minor: nil)).matches(.altBeacon(id1: Self.uuid, id2: 9, id3: 9)))
        let eddystone = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAA)
        #expect(!BeaconMatch(.uuid(Self.uuid, major: nil, minor: nil)).matches(eddystone))
        #expect(BeaconMatch(.eddystone(namespaceHex: "0102030405060708090A", instanceHex: nil)).matches(eddystone))
        #expect(!BeaconMatch(.eddystone(namespaceHex: "0102030405060708090a", instanceHex: "0000000000bb")).matches(eddystone))
        #expect(BeaconMatch.any.matches(eddystone))
    }
}
