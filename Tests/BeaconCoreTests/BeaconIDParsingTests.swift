import BeaconCore
import FoundationEssentials
import Testing

@Suite("BeaconID read from text")
struct BeaconIDParsingTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    @Test("the three written forms, and a bare UUID:major:minor as an iBeacon")
    func forms() {
        #expect(BeaconID("ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2") == .iBeacon(uuid: Self.uuid, major: 1, minor: 2))
        #expect(BeaconID("e2c56db5-dffb-48d2-b060-d0f5a71096e0:65535:0") == .iBeacon(uuid: Self.uuid, major: 65535, minor: 0))
        #expect(BeaconID("AltBeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:7:8") == .altBeacon(id1: Self.uuid, id2: 7, id3: 8))
        #expect(
            BeaconID("eddystone-uid:0102030405060708090a:AABBCCDDEEFF")
                == .eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAABB_CCDD_EEFF))
    }

    @Test(
        "wrong shapes are refused",
        arguments: [
            "", "ibeacon", "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1", "ibeacon:not-a-uuid:1:2",
            "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:65536:2", "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:-2",
            "eddystone-uid:0102030405060708090a:aabbccddee", "eddystone-uid:0102+30405060708090a:aabbccddeeff",
            "eddystone-uid:0102030405060708090g:aabbccddeeff", "beacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2",
        ])
    func refused(text: String) {
        #expect(BeaconID(text) == nil)
    }
}
