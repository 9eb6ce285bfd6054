import BeaconCore
import Testing

@testable import BeaconStrategyPlugins

@Suite("Plugin ABI words: beacons cross as 64-bit words and come back equal")
struct RangedBeaconPluginWordsTests {
    static let identities: [BeaconID] = [
        .iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 0xFFFF, minor: 1),
        .altBeacon(id1High: 0x0102_0304_0506_0708, id1Low: 0x090A_0B0C_0D0E_0F10, id2: 7, id3: 0xBEEF),
        .eddystoneUID(namespaceHigh: 0xEDD1, namespaceLow: 0xEBEA_C04E_5DEF_A017, instance: 0x0000_0BDB_87C1),
    ]

    @Test("identities of every kind", arguments: identities)
    func identity(_ id: BeaconID) {
        var words = [UInt64](repeating: 0, count: StrategyPluginABI.identityWordCount)
        words.withUnsafeMutableBufferPointer { id.writePluginWords(to: $0.baseAddress!) }
        #expect(words.withUnsafeBufferPointer { BeaconID(pluginWords: $0.baseAddress!) } == id)
    }

    @Test("ranged beacons, with and without optional fields", arguments: [true, false])
    func beacon(withOptionals: Bool) {
        let beacon = RangedBeacon(
            id: Self.identities[2], lastAddress: BluetoothAddress(rawValue: 0xC0_FF_EE_12_34_56), addressCount: 3,
            seenThisCycle: withOptionals, sampleCount: 4, lastRSSI: withOptionals ? -61 : nil,
            meanRSSI: withOptionals ? -62.5 : nil, filteredRSSI: withOptionals ? -63.25 : nil,
            measuredPower: withOptionals ? -59 : nil, distance: withOptionals ? 1.75 : nil,
            accuracy: withOptionals ? 0.5 : nil, proximity: withOptionals ? .near : .unknown,
            firstSeen: Timestamp(nanosecondsSinceEpoch: 1_767_225_600_123_456_789),
            lastSeen: Timestamp(nanosecondsSinceEpoch: 1_767_225_660_987_654_321))
        var words = [UInt64](repeating: 0, count: StrategyPluginABI.beaconWordCount)
        words.withUnsafeMutableBufferPointer { beacon.writePluginWords(to: $0.baseAddress!) }
        #expect(words.withUnsafeBufferPointer { RangedBeacon(pluginWords: $0.baseAddress!) } == beacon)
    }
}
