import BeaconCore
import FoundationEssentials
import Testing

@testable import BeaconRanging

@Suite("BeaconRegion")
struct BeaconRegionTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let other = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    @Test(
        "identity constraints",
        arguments: [
            (BeaconMatch.any, true),
            (.uuid(uuid), true),
            (.uuid(other), false),
            (.uuid(uuid, major: 1), true),
            (.uuid(uuid, major: 2), false),
            (.uuid(uuid, major: 1, minor: 7), true),
            (.uuid(uuid, major: 1, minor: 8), false),
            (.eddystone(namespace: "e2c56db5dffb48d2b060"), false),
        ])
    func constraints(constraint: BeaconMatch, expected: Bool) {
        let region = BeaconRegion(id: "r", match: constraint)
        #expect(region.contains(Fixture.beacon(7, major: 1)) == expected)
    }

    @Test("Eddystone namespace matches the namespace, whatever the instance")
    func eddystone() {
        let id = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xABCDEF)
        #expect(BeaconRegion(id: "e", match: .eddystone(namespace: "0102030405060708090A")).contains(id))
        #expect(!BeaconRegion(id: "e", match: .eddystone(namespace: "0102030405060708090b")).contains(id))
        #expect(!BeaconRegion(id: "e", match: .uuid(Self.uuid)).contains(id))
    }

    @Test("enter at the sighting; exit at the first boundary ≥ lastSeen + each region's timeout")
    func enterAndExitWithPerRegionTimeouts() throws {
        let config = RangingConfiguration(
            missedScanGrace: .seconds(1), retention: .seconds(3),
            regions: [
                BeaconRegion(id: "shop", match: .uuid(Self.uuid), exitTimeout: .seconds(2)),
                BeaconRegion(id: "site", match: .any),
                BeaconRegion(id: "elsewhere", match: .uuid(Self.other)),
            ],
            defaultExitTimeout: .seconds(5))
        var loop = try RangingLoop(configuration: config)
        _ = loop.ingest(Fixture.sighting(0.5))
        var events: [(Double, String, RegionEvent.Kind, Double)] = []
        var evictedAt: [Double] = []
        for update in loop.advance(to: Fixture.time(7)) {
            for e in update.regionEvents {
                events.append((Fixture.seconds(update.time), e.regionID, e.kind, Fixture.seconds(e.time)))
            }
            if !update.evicted.isEmpty { evictedAt.append(Fixture.seconds(update.time)) }
        }
        // shop: 0.5 + 2 = 2.5 → boundary 3; site: 0.5 + 5 = 5.5 → boundary 6. Retention waits for
        // the longest exit timeout (5 s): evicted at 6 too.
        #expect(events.map(\.0) == [1, 1, 3, 6])
        #expect(events.map(\.1) == ["shop", "site", "shop", "site"])
        #expect(events.map(\.2) == [.enter, .enter, .exit, .exit])
        #expect(events.map(\.3) == [0.5, 0.5, 3, 6])
        #expect(evictedAt == [6])

        // Re-entry after the exit.
        _ = loop.ingest(Fixture.sighting(7.2))
        let again = loop.advance(to: Fixture.time(8)).flatMap(\.regionEvents)
        #expect(again.map(\.regionID) == ["shop", "site"])
        #expect(again.allSatisfy { $0.kind == .enter })
    }

    @Test("a beacon seen again before its timeout does not exit or re-enter")
    func staysInside() throws {
        let config = RangingConfiguration(regions: [BeaconRegion(id: "site", match: .any, exitTimeout: .seconds(2))])
        var loop = try RangingLoop(configuration: config)
        var kinds: [RegionEvent.Kind] = []
        for t in stride(from: 0.5, to: 10, by: 1.5) {
            for update in loop.ingest(Fixture.sighting(t)) { kinds += update.regionEvents.map(\.kind) }
        }
        #expect(kinds == [.enter])
    }
}
