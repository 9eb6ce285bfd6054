import BeaconCore
import BeaconSite
import BeaconSiteReport
import Foundation
import Testing

@Suite("Site fusion: rooms, positions, time")
struct SiteFusionTests {
    static let base = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)
    static let tag = BeaconID.iBeacon(uuidHigh: 0xAA, uuidLow: 0xBB, major: 1, minor: 1)

    static func at(_ seconds: Double) -> Timestamp { base + .milliseconds(Int64(seconds * 1000)) }

    /// Feeds one gateway's report for the cycle ending at `seconds`.
    static func report(
        _ fusion: SiteFusion, gateway: String, at seconds: Double, rssi: Double?, distance: Double? = nil,
        beacon: BeaconID = tag, receivedAt: Timestamp? = nil, gatewayClockAhead: Duration = .zero
    ) {
        let time = at(seconds) + gatewayClockAhead
        let record = GatewayRecord(
            beacon: beacon, rssi: rssi, meanRSSI: rssi, distance: distance, accuracy: distance.map { $0 * 0.2 },
            sampleCount: rssi == nil ? 0 : 5, seen: rssi != nil, lastSeen: time)
        let header = GatewayReportHeader(gateway: gateway, time: time, cycleLength: .seconds(1), recordCount: 1)
        #expect(throws: Never.self) { try fusion.ingest([record], header: header, receivedAt: receivedAt) }
    }

    /// Runs the cycles up to `seconds`, returning each update's (time, beacons, region events, evicted).
    static func advance(_ fusion: SiteFusion, to seconds: Double) -> [(Timestamp, [RangedBeacon], [RegionEvent], [BeaconID])] {
        var updates: [(Timestamp, [RangedBeacon], [RegionEvent], [BeaconID])] = []
        fusion.advance(to: at(seconds)) { updates.append(($0.time, $0.beacons, $0.regionEvents, $0.evicted)) }
        return updates
    }

    static func twoRooms(margin: Double = 3, dwell: Duration = .seconds(2), lateness: Duration = .zero) throws -> SiteFusion {
        let layout = try SiteLayout(gateways: [
            SiteGateway(id: "a", room: "hall", position: Vector3(x: 0, y: 0, z: 2)),
            SiteGateway(id: "b", room: "shop", position: Vector3(x: 10, y: 0, z: 2)),
        ])
        return try SiteFusion(
            layout: layout,
            configuration: SiteFusionConfiguration(
                lateness: lateness, retention: .seconds(5), room: RoomHysteresis(margin: margin, minimumDwell: dwell)))
    }

    @Test("a beacon changes room only once another room leads by the margin for the minimum time")
    func roomHysteresis() throws {
        let fusion = try Self.twoRooms()
        // (cycle end, hall's RSSI, shop's RSSI); a room's score is its mean over two cycles.
        let script: [(Double, Double, Double)] = [
            (1, -60, -70), // hall
            (2, -70, -68), (3, -70, -68), // scores -65/-69, then -70/-68: the shop leads by 2 dB, under the margin
            (4, -70, -65), (5, -70, -65), // -70/-66.5, -70/-65: a lead from 4 s, but for less than 2 s
            (6, -70, -71), (7, -72, -66), // -70/-68, -71/-68.5: the lead is lost, the wait starts again
            (8, -72, -66), (9, -72, -66), (10, -72, -66), // -72/-66 from 8 s: the room changes at 10 s
        ]
        var rooms: [String?] = []
        var events: [String] = []
        for (t, hall, shop) in script {
            Self.report(fusion, gateway: "a", at: t, rssi: hall)
            Self.report(fusion, gateway: "b", at: t, rssi: shop)
            for (time, beacons, regionEvents, _) in Self.advance(fusion, to: t) {
                #expect(time == Self.at(t))
                rooms.append(beacons.first?.room)
                events += regionEvents.map {
                    "\($0.kind.rawValue) \($0.regionID) @\(Int(($0.time - Self.base).components.seconds))"
                }
            }
        }
        #expect(rooms == Array(repeating: "hall", count: 9) + ["shop"])
        #expect(events == ["enter hall @1", "exit hall @10", "enter shop @10"])
        #expect(fusion.statistics.roomChanges == 1)
    }

    @Test("a tag between two rooms flaps without hysteresis and stays put with it")
    func noHysteresisFlaps() throws {
        // Each gateway leads for two cycles in turn: the two-cycle means swap every other cycle.
        let script: [(Double, Double, Double)] = [(1, -60, -70), (2, -70, -60), (3, -70, -60), (4, -60, -70), (5, -60, -70)]
        func rooms(_ fusion: SiteFusion) -> [String?] {
            var rooms: [String?] = []
            for (t, hall, shop) in script {
                Self.report(fusion, gateway: "a", at: t, rssi: hall)
                Self.report(fusion, gateway: "b", at: t, rssi: shop)
                rooms += Self.advance(fusion, to: t).map { $0.1.first?.room }
            }
            return rooms
        }
        // Ties (2 s and 4 s) do not switch, even without a margin.
        #expect(try rooms(Self.twoRooms(margin: 0, dwell: .zero)) == ["hall", "hall", "shop", "shop", "hall"])
        #expect(try rooms(Self.twoRooms()) == ["hall", "hall", "hall", "hall", "hall"])
    }

    @Test("a gateway's RSSI offset evens out a deaf receiver")
    func rssiOffset() throws {
        let layout = try SiteLayout(gateways: [
            SiteGateway(id: "a", room: "hall"), SiteGateway(id: "b", room: "shop", rssiOffset: 8),
        ])
        let fusion = try SiteFusion(layout: layout, configuration: SiteFusionConfiguration(lateness: .zero))
        Self.report(fusion, gateway: "a", at: 1, rssi: -60)
        Self.report(fusion, gateway: "b", at: 1, rssi: -65) // -57 once corrected
        let beacon = try #require(Self.advance(fusion, to: 1).first?.1.first)
        #expect(beacon.room == "shop")
        #expect(beacon.filteredRSSI == -57)
    }

    static func square(tracking: Double? = 0.5) throws -> SiteFusion {
        let corners = [(0.0, 0.0), (10, 0), (0, 10), (10, 10)]
        let layout = try SiteLayout(
            gateways: corners.enumerated().map { i, c in
                SiteGateway(id: "g\(i)", room: "hall", position: Vector3(x: c.0, y: c.1, z: 1.5))
            })
        var positioning = PositioningConfiguration(tagHeight: 1.5, tracking: tracking)
        positioning.gridByDefault = false // the per-cycle fit, which these tests are about
        return try SiteFusion(
            layout: layout, configuration: SiteFusionConfiguration(lateness: .zero, positioning: positioning))
    }

    /// The RSSI the hub's model expects at `d` metres from a beacon of measured power -59 dBm.
    static func modelRSSI(_ d: Double) -> Double { -59 - 15 * log10(d) }

    @Test("RSSI that fits the model exactly gives the position to the centimetre")
    func multilaterationExact() throws {
        let fusion = try Self.square()
        let truth = (x: 3.0, y: 4.0)
        for (i, c) in [(0.0, 0.0), (10, 0), (0, 10), (10, 10)].enumerated() {
            let d = ((truth.x - c.0) * (truth.x - c.0) + (truth.y - c.1) * (truth.y - c.1)).squareRoot()
            Self.report(fusion, gateway: "g\(i)", at: 1, rssi: Self.modelRSSI(d), distance: d)
        }
        let beacon = try #require(Self.advance(fusion, to: 1).first?.1.first)
        let position = try #require(beacon.position)
        #expect(abs(position.x - 3) < 0.01 && abs(position.y - 4) < 0.01, "\(position)")
        #expect(position.z == 1.5)
        #expect(beacon.gatewayCount == 4)
        #expect(fusion.statistics.multilaterations == 1)
    }

    @Test("a beacon whose every RSSI is 6 dB low (a tag in a pocket) is still placed: the common offset absorbs it")
    func multilaterationCommonOffset() throws {
        let fusion = try Self.square()
        for (i, c) in [(0.0, 0.0), (10, 0), (0, 10), (10, 10)].enumerated() {
            let d = ((3 - c.0) * (3 - c.0) + (4 - c.1) * (4 - c.1)).squareRoot()
            Self.report(fusion, gateway: "g\(i)", at: 1, rssi: Self.modelRSSI(d) - 6, distance: d)
        }
        let position = try #require(Self.advance(fusion, to: 1).first?.1.first?.position)
        #expect(abs(position.x - 3) < 0.05 && abs(position.y - 4) < 0.05, "\(position)")
    }

    @Test("one gateway 8 dB off moves the position, by less than its stated error allows")
    func multilaterationNoisy() throws {
        let fusion = try Self.square()
        // True position (5, 5): every gateway is 7.07 m away; the last one reads 8 dB low.
        for (i, offset) in [0.0, 0, 0, -8].enumerated() {
            Self.report(fusion, gateway: "g\(i)", at: 1, rssi: Self.modelRSSI(50.0.squareRoot()) + offset, distance: 7.07)
        }
        let position = try #require(Self.advance(fusion, to: 1).first?.1.first?.position)
        let error = ((position.x - 5) * (position.x - 5) + (position.y - 5) * (position.y - 5)).squareRoot()
        #expect(error > 0.1 && error < 3, "\(position)")
        // Moved away from the weak gateway at (10, 10).
        #expect(position.x < 5 && position.y < 5, "\(position)")
        #expect(position.error > error / 3, "\(position)")
    }

    @Test("with fewer gateways than multilateration needs, the position is the 1/d-weighted centroid")
    func centroidFallback() throws {
        let fusion = try Self.square()
        // The distances come from the cycle's mean RSSI under the model: 1 m and 9 m.
        Self.report(fusion, gateway: "g0", at: 1, rssi: Self.modelRSSI(1), distance: 1)
        Self.report(fusion, gateway: "g1", at: 1, rssi: Self.modelRSSI(9), distance: 9)
        let position = try #require(Self.advance(fusion, to: 1).first?.1.first?.position)
        // Weights 1 and 1/9: x = (0·1 + 10/9) / (1 + 1/9) = 1. The first fix starts the track as it is.
        #expect(abs(position.x - 1) < 1e-6)
        #expect(position.y == 0)
        #expect(fusion.statistics.centroids == 1)
    }

    @Test("tracking smooths a jump: a fix 4 m away moves the position part of the way")
    func tracking() throws {
        let fusion = try Self.square()
        func cycle(_ t: Double, x: Double, y: Double) throws -> BeaconPosition {
            for (i, c) in [(0.0, 0.0), (10, 0), (0, 10), (10, 10)].enumerated() {
                let d = ((x - c.0) * (x - c.0) + (y - c.1) * (y - c.1)).squareRoot()
                Self.report(fusion, gateway: "g\(i)", at: t, rssi: Self.modelRSSI(d), distance: d)
            }
            return try #require(Self.advance(fusion, to: t).first?.1.first?.position)
        }
        for t in 1...10 { _ = try cycle(Double(t), x: 3, y: 4) }
        let jumped = try cycle(11, x: 7, y: 4)
        #expect(jumped.x > 3.5 && jumped.x < 6.9, "\(jumped)")
        let untracked = try Self.square(tracking: nil)
        for (i, c) in [(0.0, 0.0), (10, 0), (0, 10), (10, 10)].enumerated() {
            let d = ((7 - c.0) * (7 - c.0) + (4 - c.1) * (4 - c.1)).squareRoot()
            Self.report(untracked, gateway: "g\(i)", at: 1, rssi: Self.modelRSSI(d), distance: d)
        }
        let raw = try #require(Self.advance(untracked, to: 1).first?.1.first?.position)
        #expect(abs(raw.x - 7) < 0.01)
    }

    @Test("gateways without a position decide rooms but give no position")
    func noPositions() throws {
        let layout = try SiteLayout(gateways: [SiteGateway(id: "a", room: "hall")])
        let fusion = try SiteFusion(layout: layout, configuration: SiteFusionConfiguration(lateness: .zero))
        Self.report(fusion, gateway: "a", at: 1, rssi: -60, distance: 2)
        let beacon = try #require(Self.advance(fusion, to: 1).first?.1.first)
        #expect(beacon.room == "hall")
        #expect(beacon.position == nil)
        #expect(beacon.distance == 2)
        #expect(beacon.proximity == .near)
    }

    @Test("a cycle is fused once its lateness has passed; later records count as late, older ones are dropped")
    func lateness() throws {
        let fusion = try Self.twoRooms(lateness: .seconds(1))
        Self.report(fusion, gateway: "a", at: 1, rssi: -60)
        #expect(Self.advance(fusion, to: 1.5).isEmpty) // cycle 1 waits until 2 s
        Self.report(fusion, gateway: "b", at: 1, rssi: -50) // in time: it decides the room
        let first = Self.advance(fusion, to: 2)
        #expect(first.map(\.0) == [Self.at(1)])
        #expect(first.first?.1.first?.room == "shop")
        #expect(first.first?.1.first?.gatewayCount == 2)
        Self.report(fusion, gateway: "a", at: 2, rssi: -60)
        _ = Self.advance(fusion, to: 6) // cycles 2–5 fused
        Self.report(fusion, gateway: "a", at: 4, rssi: -60) // late, still within the kept cycles
        Self.report(fusion, gateway: "a", at: 1, rssi: -60) // too old to keep
        #expect(fusion.statistics.lateRecords == 1)
        #expect(fusion.statistics.staleRecords == 1)
    }

    @Test("a gateway whose clock is 100 s ahead is aligned to the hub's clock from receive times")
    func clockAlignment() throws {
        let fusion = try Self.twoRooms(lateness: .zero)
        for t in 1...3 {
            let received = Self.at(Double(t)) + .milliseconds(30)
            Self.report(fusion, gateway: "a", at: Double(t), rssi: -60, receivedAt: received, gatewayClockAhead: .seconds(100))
            Self.report(fusion, gateway: "b", at: Double(t), rssi: -70, receivedAt: received)
        }
        // Both gateways' records fall into the hub's cycles (ending at 2, 3, 4 once the 30 ms
        // transit is added), and both count as evidence in the same cycle.
        let updates = Self.advance(fusion, to: 4)
        #expect(updates.map(\.0) == [Self.at(2), Self.at(3), Self.at(4)])
        #expect(updates.map { $0.1.first?.gatewayCount } == [2, 2, 2])
        #expect(updates.allSatisfy { $0.1.first?.room == "hall" })
    }

    @Test("a beacon no gateway hears leaves its room after the staleness, and is forgotten after the retention")
    func departure() throws {
        let fusion = try Self.twoRooms()
        Self.report(fusion, gateway: "a", at: 1, rssi: -60)
        var log: [String] = []
        for (time, beacons, events, evicted) in Self.advance(fusion, to: 8) {
            let t = Int((time - Self.base).components.seconds)
            log.append(
                "\(t): \(beacons.map { "\($0.seenThisCycle ? "seen" : "grace") \($0.room ?? "-")" })"
                    + " \(events.map { "\($0.kind.rawValue) \($0.regionID)" }) \(evicted.count)")
        }
        #expect(
            log == [
                "1: [\"seen hall\"] [\"enter hall\"] 0",
                "2: [\"grace hall\"] [] 0",
                "3: [\"grace hall\"] [] 0",
                "4: [] [\"exit hall\"] 0",
                "5: [] [] 0",
                "6: [] [] 1",
            ])
        #expect(fusion.trackedCount == 0)
    }

    @Test("reports from a gateway that is not in the layout are dropped and named")
    func unknownGateway() throws {
        let fusion = try Self.twoRooms()
        let record = GatewayRecord(
            beacon: Self.tag, rssi: -60, distance: nil, accuracy: nil, sampleCount: 1, seen: true, lastSeen: Self.at(1))
        let header = GatewayReportHeader(gateway: "stranger", time: Self.at(1), cycleLength: .seconds(1), recordCount: 1)
        let refusal = try #require(throws: ReportRefusal.self) { try fusion.ingest([record], header: header) }
        #expect(refusal.reason == .unknownGateway)
        #expect(fusion.statistics.refusedReports == [.unknownGateway: 1])
        #expect(fusion.unknownGatewayIDs == ["stranger"])
        #expect(fusion.trackedCount == 0)
    }

    @Test("an encoded report goes through the same path as values")
    func encodedReport() throws {
        let fusion = try Self.twoRooms()
        var encoder = GatewayReportEncoder(gateway: "b")
        encoder.begin(time: Self.at(1), cycleLength: .seconds(1))
        encoder.append(
            GatewayRecord(
                beacon: Self.tag, rssi: -61.5, meanRSSI: -60, distance: 3, accuracy: 1, sampleCount: 4, seen: true,
                lastSeen: Self.at(1)))
        encoder.finish()
        try encoder.bytes.withUnsafeBytes { try fusion.ingest(report: $0) }
        #expect(fusion.statistics.reports == 1)
        let beacon = try #require(Self.advance(fusion, to: 1).first?.1.first)
        #expect(beacon.room == "shop")
        #expect(beacon.filteredRSSI == -61.5)
        #expect(beacon.sampleCount == 4)
    }

    @Test("a layout refuses no gateways, a repeated id and an id that cannot be a topic level")
    func layoutErrors() {
        #expect(throws: SiteConfigurationError.noGateways) { try SiteLayout(gateways: []) }
        #expect(throws: SiteConfigurationError.duplicateGateway("a")) {
            try SiteLayout(gateways: [SiteGateway(id: "a"), SiteGateway(id: "a")])
        }
        #expect(throws: SiteConfigurationError.invalidGatewayID("a/b")) { try SiteLayout(gateways: [SiteGateway(id: "a/b")]) }
    }
}
