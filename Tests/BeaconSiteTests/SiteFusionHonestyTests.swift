import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconStrategies
import BeaconStrategyKit
import Testing

/// Confidence, `unknown`, offline gateways and floors (issue 27, parts 3 and 4), on manual time:
/// every report is fed with its own time and the cycles are closed by `advance(to:)`.
@Suite("Site fusion: confidence, unknown, offline gateways, floors")
struct SiteFusionHonestyTests {
    typealias T = SiteFusionTests
    static let other = BeaconID.iBeacon(uuidHigh: 0xCC, uuidLow: 0xDD, major: 2, minor: 2)

    static func fusion(
        _ gateways: [SiteGateway], room: RoomHysteresis = RoomHysteresis(margin: 3, minimumDwell: .seconds(2)),
        offline: Duration? = nil
    ) throws -> SiteFusion {
        var configuration = SiteFusionConfiguration(lateness: .zero, retention: .seconds(60), room: room)
        configuration.gatewayOffline = offline
        return try SiteFusion(layout: try SiteLayout(gateways: gateways), configuration: configuration)
    }

    static let twoRooms = [
        SiteGateway(id: "a", room: "hall", position: Vector3(x: 0, y: 0, z: 2)),
        SiteGateway(id: "b", room: "shop", position: Vector3(x: 10, y: 0, z: 2)),
    ]

    /// Feeds `rssi` per gateway (nil: that gateway sends nothing) for the cycle ending at `t`, and
    /// closes it; returns the tag's fused state (nil when not reported) and the cycle's region events.
    static func cycle(
        _ fusion: SiteFusion, _ t: Double, _ rssi: [String: Double?], extra: [String] = []
    ) -> (beacon: RangedBeacon?, events: [String]) {
        for (gateway, value) in rssi.sorted(by: { $0.key < $1.key }) {
            if let value { T.report(fusion, gateway: gateway, at: t, rssi: value) }
        }
        // Gateways that report another beacon only: they are up, and did not hear the tag.
        for gateway in extra { T.report(fusion, gateway: gateway, at: t, rssi: -70, beacon: other) }
        var result: (RangedBeacon?, [String]) = (nil, [])
        for (_, beacons, events, _) in T.advance(fusion, to: t) {
            result = (
                beacons.first { $0.id == T.tag },
                events.filter { $0.beacon == T.tag }.map { "\($0.kind.rawValue) \($0.regionID)" }
            )
        }
        return result
    }

    @Test("the room's confidence is Φ of its lead over the other rooms in units of σ·√2")
    func confidence() throws {
        let fusion = try Self.fusion(Self.twoRooms)
        let clear = Self.cycle(fusion, 1, ["a": -60, "b": -70]).beacon
        #expect(clear?.room == "hall")
        // A 10 dB lead, σ = 4 dB: Φ(10 / 5.66) = 0.961.
        #expect(abs((clear?.roomConfidence ?? 0) - 0.961) < 0.002)
        // Two cycles of a tie: the means are equal, so it is a coin toss.
        _ = Self.cycle(fusion, 2, ["a": -65, "b": -65])
        let tie = Self.cycle(fusion, 3, ["a": -65, "b": -65]).beacon
        #expect(tie?.room == "hall")
        #expect(abs((tie?.roomConfidence ?? 0) - 0.5) < 1e-6)
        // Shop leads by 10 dB over two cycles, under the dwell: still hall, at 0.039.
        _ = Self.cycle(fusion, 4, ["a": -70, "b": -60])
        let behind = Self.cycle(fusion, 5, ["a": -70, "b": -60]).beacon
        #expect(behind?.room == "hall")
        #expect(abs((behind?.roomConfidence ?? 1) - 0.039) < 0.002)
    }

    @Test("a signal below minRSSI, or too few gateways, is unknown: no room, no position, an exit; then back")
    func unknownThresholds() throws {
        let fusion = try Self.fusion(
            Self.twoRooms, room: RoomHysteresis(margin: 3, minimumDwell: .seconds(2), minimumRSSI: -90, minimumGateways: 2))
        let start = Self.cycle(fusion, 1, ["a": -60, "b": -70])
        #expect(start.beacon?.room == "hall" && start.events == ["enter hall"])
        #expect(start.beacon?.position != nil)
        // Only one gateway: under minGateways.
        _ = Self.cycle(fusion, 2, ["a": -60])
        let lone = Self.cycle(fusion, 6, ["a": -60])
        #expect(lone.beacon?.roomUnknown == true && lone.beacon?.room == nil && lone.beacon?.position == nil)
        // Both again, but faint: below minRSSI.
        // (At 7 the two-cycle mean still holds −60 of 6: known for a cycle, then below minRSSI.)
        _ = Self.cycle(fusion, 7, ["a": -95, "b": -96])
        _ = Self.cycle(fusion, 8, ["a": -95, "b": -96])
        let faint = Self.cycle(fusion, 9, ["a": -95, "b": -96])
        #expect(faint.beacon?.roomUnknown == true && faint.events.isEmpty)
        let back = Self.cycle(fusion, 10, ["a": -60, "b": -80])
        #expect(back.beacon?.room == "hall" && back.beacon?.roomUnknown == false && back.events == ["enter hall"])
        #expect(fusion.statistics.unknownRooms > 0)
    }

    @Test("a room whose gateway stops reporting keeps the beacon, then says unknown once it is offline; not moved by the silence")
    func offlineGatewayDoesNotMoveBeacons() throws {
        let fusion = try Self.fusion(Self.twoRooms, offline: .seconds(10))
        for t in 1...3 { _ = Self.cycle(fusion, Double(t), ["a": -60, "b": -80]) }
        var rooms: [String] = []
        var events: [String] = []
        var offlineAt: [String] = []
        for t in 4...20 {
            // Gateway a is gone; b still hears the tag faintly through the wall.
            let (beacon, cycleEvents) = Self.cycle(fusion, Double(t), ["b": -80])
            rooms.append(beacon.map { $0.roomUnknown ? "?" : $0.room ?? "-" } ?? "gone")
            events += cycleEvents
            offlineAt += fusion.gatewayChanges.map { "\(t) \($0.gateway) \($0.online ? "online" : "offline")" }
        }
        // Its last report was at 3: offline at 13. Until then the hall keeps its last score (quiet,
        // not absence); from then the tag is unknown. It never moves to the shop.
        #expect(rooms == Array(repeating: "hall", count: 9) + Array(repeating: "?", count: 8))
        #expect(events == ["exit hall"])
        #expect(offlineAt == ["13 a offline"])
        #expect(fusion.gatewayStatuses.map(\.online) == [false, true])
        #expect(fusion.statistics.gatewaysOffline == 1)
        // Gateway a comes back: online, and the tag is in the hall again.
        let back = Self.cycle(fusion, 21, ["a": -60, "b": -80])
        #expect(fusion.gatewayChanges.map(\.online) == [true])
        #expect(back.beacon?.room == "hall" && back.events == ["enter hall"])
    }

    @Test(
        "on outlined rooms: a room whose gateways stop reporting keeps the beacon, then says unknown, unplaced, once they are offline; never moved east by their silence"
    )
    func offlineGatewaysOfAnOutlinedRoom() throws {
        let gateways = [
            SiteGateway(id: "w1", room: "west", position: Vector3(x: 2, y: 2, z: 2)),
            SiteGateway(id: "w2", room: "west", position: Vector3(x: 2, y: 8, z: 2)),
            SiteGateway(id: "e1", room: "east", position: Vector3(x: 18, y: 2, z: 2)),
            SiteGateway(id: "e2", room: "east", position: Vector3(x: 18, y: 8, z: 2)),
        ]
        let layout = try SiteLayout(
            gateways: gateways,
            roomOutlines: [
                SiteRoomOutline(room: "west", corners: SiteRoomOutline.rectangle(SIMD2(0, 0), SIMD2(10, 10))),
                SiteRoomOutline(room: "east", corners: SiteRoomOutline.rectangle(SIMD2(10, 0), SIMD2(20, 10))),
            ])
        var configuration = SiteFusionConfiguration(
            lateness: .zero, retention: .seconds(60), room: RoomHysteresis(margin: 3, minimumDwell: .seconds(2)))
        configuration.gatewayOffline = .seconds(10)
        // Misses that speak of a gateway's neighbourhood only (a receiver that hears down to
        // −70 dBm): counted from a gateway that does not report, they would push the tag east.
        configuration.positioning.grid = GridTracking(sensitivity: -70)
        let fusion = try SiteFusion(layout: layout, configuration: configuration)
        // Near the west wall, by the west room's gateways.
        var first: RangedBeacon?
        for t in 1...5 { first = Self.cycle(fusion, Double(t), ["w1": -64, "w2": -64, "e1": -82, "e2": -82]).beacon }
        #expect(first?.room == "west" && first?.roomUnknown == false && first?.position != nil)
        var rooms: [String] = []
        var placed: [Bool] = []
        var eastmost = -Double.infinity
        var events: [String] = []
        for t in 6...20 {
            // Both west gateways are gone; the east ones still hear the tag faintly.
            let (beacon, cycleEvents) = Self.cycle(fusion, Double(t), ["e1": -82, "e2": -82])
            rooms.append(beacon.map { $0.roomUnknown ? "?" : $0.room ?? "-" } ?? "gone")
            placed.append(beacon?.position != nil)
            if let x = beacon?.position?.x { eastmost = max(eastmost, x) }
            events += cycleEvents
        }
        // Their last report was at 5: offline at 15. Until then (quiet, not yet offline) the tag
        // stays in the west room, and its estimate in the room's middle: their silence is not
        // taken as the tag's absence (counted, it pushed the estimate to x = 9.6 m, by the wall).
        // From then it is unknown and has no position. It never moves east.
        #expect(rooms == Array(repeating: "west", count: 9) + Array(repeating: "?", count: 6), "\(rooms)")
        #expect(placed == Array(repeating: true, count: 9) + Array(repeating: false, count: 6), "\(placed)")
        #expect(eastmost < 7.5, "the estimate went as far east as x = \(eastmost) m")
        #expect(events == ["exit west"], "\(events)")
        let back = Self.cycle(fusion, 21, ["w1": -64, "w2": -64, "e1": -82, "e2": -82])
        #expect(back.beacon?.room == "west" && back.beacon?.roomUnknown == false && back.beacon?.position != nil)
        #expect(back.events == ["enter west"])
    }

    @Test("an idle gateway that sends empty reports stays online; a silent one goes offline, with nothing tracked")
    func emptyReportsKeepAGatewayOnline() throws {
        let fusion = try Self.fusion(Self.twoRooms, offline: .seconds(10))
        var changes: [String] = []
        for t in 1...20 {
            // Gateway a tracks nothing and sends its heartbeat; b is silent after t = 2.
            let gateways = t <= 2 ? ["a", "b"] : ["a"]
            for gateway in gateways {
                // As sent: the header alone (binary; the JSON format's `records` is empty).
                var encoder = GatewayReportEncoder(gateway: gateway, format: t.isMultiple(of: 2) ? .binary : .json)
                encoder.begin(time: T.at(Double(t)), cycleLength: .seconds(1))
                encoder.finish()
                try encoder.bytes.withUnsafeBytes { try fusion.ingest(report: $0) }
            }
            fusion.advance(to: T.at(Double(t))) { _ in
                changes += fusion.gatewayChanges.map { "\(t) \($0.gateway) \($0.online ? "online" : "offline")" }
            }
        }
        // Zero-record reports count as reporting and create nothing.
        #expect(fusion.trackedCount == 0)
        #expect(fusion.statistics.reports == 22 && fusion.statistics.records == 0)
        #expect(changes == ["12 b offline"])
        #expect(fusion.gatewayStatuses.map(\.online) == [true, false])
        #expect(fusion.gatewayStatuses[0].lastReport == T.at(20))
        #expect(fusion.gatewayStatuses[1].lastReport == T.at(2))
        #expect(fusion.gatewayStatuses[1].since == T.at(12))
    }

    @Test("a gateway that reports but does not hear the tag is absence: the tag moves (as before)")
    func reportingSilenceIsAbsence() throws {
        let fusion = try Self.fusion(Self.twoRooms)
        for t in 1...3 { _ = Self.cycle(fusion, Double(t), ["a": -60, "b": -80]) }
        var rooms: [String?] = []
        for t in 4...12 { rooms.append(Self.cycle(fusion, Double(t), ["b": -80], extra: ["a"]).beacon?.room) }
        // a's records of the tag go stale after 3 s; then hall counts −105 and the shop leads for 2 s.
        #expect(rooms.last == "shop")
        #expect(!rooms.contains(nil))
    }

    @Test("the time strategy's dwell in a room does not continue through unknown, unless unknownGrace allows it")
    func timeStrategyThroughUnknown() throws {
        func fires(grace: Duration) throws -> [Int] {
            let fusion = try Self.fusion(
                Self.twoRooms, room: RoomHysteresis(margin: 3, minimumDwell: .seconds(2), minimumRSSI: -90))
            let strategy = TimeAlertStrategy(.init(dwell: .seconds(8), gap: .seconds(3), room: "hall", unknownGrace: grace))
            var fired: [Int] = []
            for t in 1...16 {
                // Faint (unknown) from 5 to 6, in the hall otherwise.
                let faint = (5...6).contains(t)
                guard let beacon = Self.cycle(fusion, Double(t), faint ? ["a": -97, "b": -98] : ["a": -60, "b": -80]).beacon
                else { continue }
                if strategy.evaluate(beacon: beacon, now: T.at(Double(t))) {
                    fired.append(t)
                    strategy.markActionDone(for: beacon.id, now: T.at(Double(t)))
                }
            }
            return fired
        }
        // Unknown ends the visit: a new one from 7 reaches 8 s at 15 (the gap of 3 s would have
        // carried a plain absence of two cycles through).
        #expect(try fires(grace: .zero) == [15])
        // With a grace of 3 s the unknown cycles count as the hall: 1 + 8 = 9.
        #expect(try fires(grace: .seconds(3)) == [9])
    }

    @Test("a floor change needs floorMargin for floorMinDwell; a room on the same floor the plain margin")
    func floorChangeNeedsMore() throws {
        let fusion = try Self.fusion(
            [
                SiteGateway(id: "a", room: "hall", position: Vector3(x: 0, y: 0, z: 2), floor: "ground"),
                SiteGateway(id: "b", room: "shop", position: Vector3(x: 10, y: 0, z: 2), floor: "ground"),
                SiteGateway(id: "c", room: "loft", position: Vector3(x: 0, y: 0, z: 6), floor: "upper"),
            ],
            room: RoomHysteresis(margin: 3, minimumDwell: .seconds(2), floorMargin: 8, floorMinimumDwell: .seconds(5)))
        #expect(fusion.layout.floors == ["ground", "upper"])
        #expect(fusion.layout.floor(ofRoom: "loft") == "upper")
        var log: [String] = []
        func run(_ range: ClosedRange<Int>, _ rssi: [String: Double?]) {
            for t in range {
                let b = Self.cycle(fusion, Double(t), rssi).beacon
                log.append("\(t) \(b?.room ?? "-")@\(b?.floor ?? "-")")
            }
        }
        run(1...2, ["a": -60, "b": -75, "c": -75])
        // The loft leads by 6 dB (more than the margin, less than the floor margin) for 8 s: no move.
        run(3...10, ["a": -66, "b": -75, "c": -60])
        // It leads by 10 dB: a floor change after 5 s of a lead of 8 dB or more (from 11, where
        // the hall's two-cycle mean is −68 against −60; so at 16).
        run(11...18, ["a": -70, "b": -75, "c": -60])
        #expect(log.prefix(10).allSatisfy { $0.hasSuffix("hall@ground") })
        #expect(log[14] == "15 hall@ground" && log[15] == "16 loft@upper")
        #expect(fusion.statistics.floorChanges == 1)
        // Back downstairs into the shop: the shop leads the loft by 10 dB — a floor change again.
        let before = fusion.statistics.roomChanges
        run(19...26, ["a": -80, "b": -58, "c": -68])
        #expect(log.last == "26 shop@ground")
        #expect(fusion.statistics.roomChanges == before + 1)
    }

    @Test("positions are solved on the beacon's floor only, at that floor's tag height")
    func positionsPerFloor() throws {
        // Three gateways per floor, the upper ones 4 m above; a tag on the upper floor.
        var gateways: [SiteGateway] = []
        for (floor, z) in [("ground", 2.5), ("upper", 6.5)] {
            for (i, (x, y)) in [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)].enumerated() {
                gateways.append(
                    SiteGateway(id: "\(floor)-\(i)", room: floor, position: Vector3(x: x, y: y, z: z), floor: floor))
            }
        }
        // The per-cycle fit to 5 cm in 3 cycles (the readings are exact); the grid filter (the
        // default), whose posterior three gateways leave broad (σ = 6 dB a reading), within 1.5 m
        // and its own 90 % radius.
        for (grid, cycles, tolerance) in [(false, 3, 0.05), (true, 10, 1.5)] {
            try positionOnUpperFloor(gateways, grid: grid, cycles: cycles, tolerance: tolerance)
        }
    }

    func positionOnUpperFloor(_ gateways: [SiteGateway], grid: Bool, cycles: Int, tolerance: Double) throws {
        var positioning = PositioningConfiguration(tagHeight: 1, pathLossExponent: 2, tracking: nil)
        positioning.gridByDefault = grid
        let fusion = try SiteFusion(
            layout: try SiteLayout(gateways: gateways),
            configuration: SiteFusionConfiguration(lateness: .zero, positioning: positioning))
        let truth = Vector3(x: 3, y: 4, z: 5)
        var last: RangedBeacon?
        for t in 1...cycles {
            for g in gateways {
                // The model's RSSI on the upper floor; the ground floor hears a floor's loss less.
                let d =
                    ((g.position!.x - truth.x) * (g.position!.x - truth.x) + (g.position!.y - truth.y)
                    * (g.position!.y - truth.y) + (g.position!.z - truth.z) * (g.position!.z - truth.z)).squareRoot()
                let rssi = -59 - 20 * logarithm10(d) - (g.floor == "ground" ? 15 : 0)
                T.report(fusion, gateway: g.id, at: Double(t), rssi: rssi)
            }
            last = T.advance(fusion, to: Double(t)).last?.1.first
        }
        #expect(last?.floor == "upper")
        let p = try #require(last?.position)
        // At the upper floor's tag height (1 m above the lowest floor's, plus 4 m).
        #expect(abs(p.z - 5) < 1e-9)
        let miss = ((p.x - 3) * (p.x - 3) + (p.y - 4) * (p.y - 4)).squareRoot()
        #expect(miss < tolerance && miss < p.radius90, "grid \(grid): \(p)")
    }

    @Test("a room whose gateways name different floors is refused, naming both")
    func roomOnTwoFloors() {
        #expect(throws: SiteConfigurationError.self) {
            try SiteLayout(gateways: [
                SiteGateway(id: "a", room: "hall", floor: "ground"), SiteGateway(id: "b", room: "hall", floor: "upper"),
            ])
        }
        #expect(throws: SiteConfigurationError.self) { try SiteLayout(gateways: [SiteGateway(id: "a", room: "unknown")]) }
    }
}
