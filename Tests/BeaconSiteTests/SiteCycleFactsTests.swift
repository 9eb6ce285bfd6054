import BeaconCore
import BeaconRanging
import BeaconSiteReport
import Testing

@testable import BeaconSite

@Suite("A fused cycle's facts, as values for the hub's observers")
struct SiteCycleFactsTests {
    typealias T = SiteFusionTests
    static let other = BeaconID.iBeacon(uuidHigh: 0xCC, uuidLow: 0xDD, major: 2, minor: 2)
    static let gateways =
        SiteFusionHonestyTests.twoRooms + [
            SiteGateway(id: "c", room: "shop", position: Vector3(x: 20, y: 0, z: 2))
        ]

    /// Each beacon's readings in `facts`, by gateway id (`nil`: evidence without a value).
    static func readings(_ facts: SiteCycleFacts, _ update: RangingUpdate) -> [BeaconID: [String: Double?]] {
        var all: [BeaconID: [String: Double?]] = [:]
        for (i, beacon) in update.beacons.enumerated() {
            var row: [String: Double?] = [:]
            facts.forEachEvidence(ofBeaconAt: i) { gateway, rssi in row[gateway] = rssi }
            all[beacon.id] = row
        }
        return all
    }

    @Test("they hold each beacon's readings by gateway, the gateways that changed and the cycles fused, as the fusion says them")
    func factsMatchTheFusion() throws {
        let fusion = try SiteFusionHonestyTests.fusion(Self.gateways, offline: .seconds(10))
        var facts = SiteCycleFacts(gatewayIDs: ["a", "b", "c"])
        var first: [BeaconID: [String: Double?]] = [:]
        var changes: [String] = []
        var checked = 0
        for t in 1...12 {
            // The tag is heard by a and b, the other beacon by b alone; c never reports.
            T.report(fusion, gateway: "a", at: Double(t), rssi: -60)
            T.report(fusion, gateway: "b", at: Double(t), rssi: -80)
            T.report(fusion, gateway: "b", at: Double(t), rssi: -70, beacon: Self.other)
            fusion.advance(to: T.at(Double(t))) { update in
                fusion.describeCycle(update, into: &facts, evidence: true)
                let readings = Self.readings(facts, update)
                if first.isEmpty { first = readings }
                // The same as the fusion's own reading of its evidence, beacon by beacon.
                for beacon in update.beacons {
                    var direct: [String: Double?] = [:]
                    fusion.forEachEvidence(of: beacon.id) { g, rssi in direct[fusion.layout.gateways[g].id] = rssi }
                    #expect(readings[beacon.id] == direct)
                    checked += 1
                }
                #expect(facts.gatewayChanges == fusion.gatewayChanges)
                #expect(facts.cycles == fusion.statistics.cycles)
                #expect(facts.calibration == fusion.calibrationStatus) // on by default, no fit yet
                changes += facts.gatewayChanges.map { "\(t) \($0.gateway) \($0.online ? "online" : "offline")" }
            }
        }
        #expect(checked >= 20)
        #expect(first == [T.tag: ["a": -60, "b": -80], Self.other: ["b": -70]])
        #expect(changes == ["11 c offline"])
    }

    @Test("without evidence they list no readings, and a row past the update's beacons lists nothing")
    func evidenceOnlyWhenAsked() throws {
        let fusion = try SiteFusionHonestyTests.fusion(Self.gateways)
        var facts = SiteCycleFacts(gatewayIDs: ["a", "b", "c"])
        var listed = 0
        for t in 1...3 {
            T.report(fusion, gateway: "a", at: Double(t), rssi: -60)
            fusion.advance(to: T.at(Double(t))) { update in
                fusion.describeCycle(update, into: &facts, evidence: t != 2)
                #expect(facts.hasEvidence == (t != 2))
                facts.forEachEvidence(ofBeaconAt: 0) { _, _ in listed += 1 }
                facts.forEachEvidence(ofBeaconAt: update.beacons.count) { _, _ in Issue.record("a row past the end") }
                facts.forEachEvidence(ofBeaconAt: -1) { _, _ in Issue.record("a row before the start") }
            }
        }
        #expect(listed == 2) // gateway a, in cycles 1 and 3
    }
}
