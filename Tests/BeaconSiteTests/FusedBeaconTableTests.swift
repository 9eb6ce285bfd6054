import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The hub's table of tracked beacons alone (`FusedBeaconTable`): what filing a report's records
/// does to it, the caps on new beacons, and what removing one keeps.
@Suite("Fused beacon table: a report's records filed, beacons capped and removed")
struct FusedBeaconTableTests {
    static let time = Timestamp(nanosecondsSinceEpoch: 1_000 * 1_000_000_000)
    static let anchor = BeaconID.iBeacon(uuidHigh: 0xA0, uuidLow: 0, major: 9, minor: 9)

    static func tag(_ minor: UInt16) -> BeaconID {
        BeaconID.iBeacon(uuidHigh: 0xAA, uuidLow: 0xBB, major: 1, minor: minor)
    }

    static func record(_ beacon: BeaconID, rssi: Double = -70, mean: Double = -68, power: Int8? = nil) -> GatewayRecord {
        GatewayRecord(
            beacon: beacon, rssi: rssi, meanRSSI: mean, distance: 2, accuracy: 1, sampleCount: 3, seen: true,
            lastSeen: time, measuredPower: power)
    }

    /// Two gateways, the second reading 4 dB low (`rssiOffset: 4`), and one anchor.
    static func table(maxTracked: Int = 100, maxBeaconsPerGateway: Int = 100) throws -> FusedBeaconTable {
        let layout = try SiteLayout(
            gateways: [SiteGateway(id: "a", room: "hall"), SiteGateway(id: "b", room: "shop", rssiOffset: 4)],
            anchors: [SiteAnchor(id: anchor, position: Vector3(x: 1, y: 1, z: 1))])
        var configuration = SiteFusionConfiguration()
        configuration.maxTracked = maxTracked
        configuration.maxBeaconsPerGateway = maxBeaconsPerGateway
        return FusedBeaconTable(layout: layout, configuration: configuration, cycleNanoseconds: 1_000_000_000)
    }

    static func filing(gateway: Int, cycle: Int64 = 1_000, stale: Bool = false, late: Bool = false)
        -> FusedBeaconTable.Filing
    {
        FusedBeaconTable.Filing(
            gateway: gateway, offset: 0, cycle: cycle, stale: stale, late: late, rssiOffset: gateway == 1 ? 4 : 0)
    }

    @Test("a report's new beacons get rows in their order; their evidence is filed with the gateway's offset")
    func filesNewBeacons() throws {
        var table = try Self.table()
        var statistics = SiteFusionStatistics()
        let records = [Self.record(Self.tag(1), power: -61), Self.record(Self.anchor, rssi: -80, mean: -79)]
        table.file(.staged, staged: records, Self.filing(gateway: 1), statistics: &statistics)
        #expect(table.count == 2 && statistics.records == 2)
        #expect(table.row(of: Self.tag(1)) == 0 && table.row(of: Self.anchor) == 1)
        #expect(table.row(of: Self.tag(2)) == nil)
        #expect(table.states[0].measuredPower == -61 && table.states[0].anchor == -1)
        #expect(table.states[1].anchor == 0, "the layout's anchor is known as one")
        let slot = table.evidence[table.evidence.index(beacon: 1, gateway: 1, cycle: 1_000)]
        #expect(slot.cycle == 1_000 && slot.rssi == -76 && slot.mean == -75 && slot.samples == 3)
        let other = table.evidence[table.evidence.index(beacon: 1, gateway: 0, cycle: 1_000)]
        #expect(other.samples == 0, "the other gateway said nothing of it")
    }

    @Test("a known beacon's record updates its row; a late report still files and is counted late")
    func knownBeacon() throws {
        var table = try Self.table()
        var statistics = SiteFusionStatistics()
        table.file(.staged, staged: [Self.record(Self.tag(1))], Self.filing(gateway: 0), statistics: &statistics)
        let later = GatewayRecord(
            beacon: Self.tag(1), rssi: -60, meanRSSI: -61, distance: 1, accuracy: 1, sampleCount: 1, seen: true,
            lastSeen: Self.time + .seconds(2), measuredPower: nil)
        table.file(.staged, staged: [later], Self.filing(gateway: 0, cycle: 999, late: true), statistics: &statistics)
        #expect(table.count == 1 && statistics.records == 2 && statistics.lateRecords == 1)
        #expect(table.states[0].lastSeen == Self.time + .seconds(2))
        #expect(table.states[0].firstSeen == Self.time)
        #expect(table.evidence[table.evidence.index(beacon: 0, gateway: 0, cycle: 999)].mean == -61)
    }

    @Test("a stale report is counted and files nothing")
    func staleReport() throws {
        var table = try Self.table()
        var statistics = SiteFusionStatistics()
        table.file(
            .staged, staged: [Self.record(Self.tag(1)), Self.record(Self.tag(2))],
            Self.filing(gateway: 0, stale: true), statistics: &statistics)
        #expect(table.count == 0)
        #expect(statistics.records == 2 && statistics.staleRecords == 2)
    }

    @Test("new beacons over the hub's cap or their gateway's are refused and counted; known ones still file")
    func caps() throws {
        var table = try Self.table(maxTracked: 3, maxBeaconsPerGateway: 2)
        var statistics = SiteFusionStatistics()
        table.file(
            .staged, staged: (1...3).map { Self.record(Self.tag($0)) }, Self.filing(gateway: 0), statistics: &statistics)
        #expect(table.count == 2 && statistics.refusedBeaconsOverGatewayCap == 1, "gateway a brings in two")
        table.file(
            .staged, staged: [3, 4, 1].map { Self.record(Self.tag($0)) }, Self.filing(gateway: 1), statistics: &statistics)
        #expect(table.count == 3 && statistics.refusedBeacons == 1, "the hub holds three")
        #expect(table.row(of: Self.tag(3)) == 2 && table.row(of: Self.tag(4)) == nil)
        #expect(table.evidence[table.evidence.index(beacon: 0, gateway: 1, cycle: 1_000)].samples == 3)
    }

    @Test("removing a beacon moves the last into its row, keeps its evidence, and frees its gateway's share")
    func remove() throws {
        var table = try Self.table(maxBeaconsPerGateway: 3)
        var statistics = SiteFusionStatistics()
        table.file(
            .staged, staged: (1...3).map { Self.record(Self.tag($0)) }, Self.filing(gateway: 0), statistics: &statistics)
        table.file(.staged, staged: [Self.record(Self.tag(3), mean: -50)], Self.filing(gateway: 1), statistics: &statistics)
        #expect(table.remove(0) == Self.tag(1))
        #expect(table.count == 2 && table.row(of: Self.tag(1)) == nil)
        #expect(table.row(of: Self.tag(3)) == 0 && table.states[0].id == Self.tag(3))
        #expect(table.evidence[table.evidence.index(beacon: 0, gateway: 1, cycle: 1_000)].mean == -46)
        #expect(table.row(of: Self.tag(2)) == 1)
        #expect(table.remove(1) == Self.tag(2), "the last row goes without a move")
        #expect(table.row(of: Self.tag(3)) == 0)
        table.file(
            .staged, staged: (4...6).map { Self.record(Self.tag($0)) }, Self.filing(gateway: 0), statistics: &statistics)
        #expect(table.count == 3 && statistics.refusedBeaconsOverGatewayCap == 1, "two removed: two more come in")
    }
}
